// The work queues (pending, for release, for testing) and the client's track list, paged by keyset:
// one SQL statement per page. Its inner query walks an index in sort order, applies the filters and
// takes limit + 1 ids (the extra one says whether a next page exists): the requests' (status, sort
// key) indexes, or for testing the progress rows' (scope, status, finished, sort key) ones, which
// the writes keep (server/db/requestProgress.ts) so that no page counts analyses per request. The
// outer query adds what the screens show for those rows only (samples, tests, progress, positives).
import type { Knex } from 'knex';
import { analytesOfGroup, catalogOrder, DISCIPLINE_GROUPS, type Group } from '../../domain/catalog.js';
import { dayAfter } from '../../domain/auditTrail.js';
import { can, type Actor } from '../../domain/policies.js';
import { QUEUE_EXPORT_CHUNK, QUEUE_STATUSES, queueCsvHeader, queueCsvRows, type QueueCursor, type QueueFilter, type QueueName, type QueuePage, type QueueRow } from '../../domain/queue.js';
import type { RequestStatus } from '../../domain/requestStatus.js';
import type { TesterSample } from '../../domain/resultShape.js';
import { disciplineOf, type Discipline } from '../../domain/roles.js';
import { scopeOfDiscipline, type ProgressScope } from '../../db/requestProgress.js';
import { whereRequestSearched } from '../../db/requestSearch.js';
import { joinedValues } from '../../db/sql.js';
import { forbidden } from '../../errors.js';
import { joinReceipt, RECEIPT_COLUMNS, receiptOf, type ReceiptColumns } from './reception.js';
import { conformityOf } from '../../db/conformity.js';

type Db = Knex | Knex.Transaction;

export interface QueueInput extends QueueFilter {
  limit: number;
  after?: QueueCursor;
}

/** A due date that is missing sorts last on both databases (NO_DUE_DATE, as the progress rows store it). */
const SORT_KEYS = { oldest: 'r.submission_date', newest: 'r.submission_date', urgent: "coalesce(r.due_date, '9999-12-31')" } as const;
/** The released list sorts and filters by release ((status, released_at, id) index of migration 002); it refuses urgent. */
const RELEASE_SORT_KEYS = { oldest: 'r.released_at', newest: 'r.released_at', urgent: 'r.released_at' } as const;
const PROGRESS_SORT_KEYS = { oldest: 'p.submission_date', newest: 'p.submission_date', urgent: 'p.due_key' } as const;

interface Plan {
  /** The list's statuses; every status when left out (the client's list). */
  statuses?: readonly RequestStatus[];
  /** Groups the caller works on (a tester's discipline, or the discipline filter); undefined: all. */
  groups?: readonly Group[];
  /** The progress rows of the caller's discipline (or of every analysis). */
  scope: ProgressScope;
  clientUserId?: number;
  /** Whether the list's day (sort and since/until) is the release rather than the submission. */
  byRelease?: boolean;
  columns: (db: Db) => Knex.Raw[];
}

const codesOf = (groups: readonly Group[]) => groups.flatMap((g) => analytesOfGroup(g).map((a) => a.code));

/**
 * The requests of a list, with their sort key: for testing, the progress rows of the plan's scope (a
 * row exists only for a request with tests of that scope, and says whether they are finished: it has
 * analyses there and none misses a value or a remark; outstanding is every other one, including a
 * request with nothing to enter yet); otherwise the requests themselves.
 */
function listedRequests(db: Db, plan: Plan, input: QueueInput): { query: Knex.QueryBuilder; key: string; status: string; day: string } {
  if (input.state) {
    const key = PROGRESS_SORT_KEYS[input.sort];
    const query = db('request_progress as p').select('p.request_id as id', db.raw(`${key} as sort_key`)).where('p.scope', plan.scope);
    if (input.state !== 'all') query.where('p.finished', input.state === 'finished' ? 1 : 0);
    // The search reads the request's own columns.
    if (input.q) query.join('requests as r', 'r.id', 'p.request_id');
    return { query, key, status: 'p.status', day: 'p.submission_date' };
  }
  const key = (plan.byRelease ? RELEASE_SORT_KEYS : SORT_KEYS)[input.sort];
  const query = db('requests as r').select('r.id', db.raw(`${key} as sort_key`));
  if (plan.clientUserId !== undefined) query.where('r.client_user_id', plan.clientUserId);
  if (plan.groups && plan.statuses?.includes('PENDING_REVIEW')) {
    query.whereExists(db('request_tests as g').select(db.raw('1')).whereRaw('g.request_id = r.id').whereIn('g.test_code', codesOf(plan.groups)));
  } else if (plan.groups) {
    // Past review a request has a progress row for each discipline it has tests of: one key lookup.
    query.whereExists(db('request_progress as g').select(db.raw('1')).whereRaw('g.request_id = r.id').where('g.scope', plan.scope));
  }
  return { query, key, status: 'r.status', day: plan.byRelease ? 'r.released_at' : 'r.submission_date' };
}

/** The page's ids and sort keys (wrapped: a query builder is a promise-like, which `await` would run). */
async function pageOfIds(db: Db, plan: Plan, input: QueueInput): Promise<{ ids: Knex.QueryBuilder }> {
  const { query, key, status, day } = listedRequests(db, plan, input);
  const direction = input.sort === 'newest' ? 'desc' : 'asc';
  const statuses = input.status ? [input.status] : plan.statuses;
  if (statuses?.length === 1) query.where(status, statuses[0]);
  else if (statuses) query.whereIn(status, statuses);
  if (input.q) await whereRequestSearched(db, query, input.q);
  // Days are UTC days of the ISO timestamps, `until` inclusive.
  if (input.since) query.where(day, '>=', input.since);
  if (input.until) query.where(day, '<', dayAfter(input.until));
  const id = input.state ? 'p.request_id' : 'r.id';
  if (input.after) {
    const k = input.after.key;
    const op = direction === 'asc' ? '>' : '<';
    query.whereRaw(`(${key} ${op} ? or (${key} = ? and ${id} ${op} ?))`, [k, k, input.after.id]);
  }
  return { ids: query.orderByRaw(`${key} ${direction}, ${id} ${direction}`).limit(input.limit + 1) };
}

/** Columns every list shows. */
function baseColumns(db: Db): (string | Knex.Raw | Knex.QueryBuilder)[] {
  return [
    'r.id', 'r.control_number', 'r.status', 'r.company_name', 'r.client_classification', 'r.testing_purpose', 'r.other_testing_purpose', 'r.lot_batch_no',
    'r.submission_date', 'r.approved_at', 'r.due_date', 'p.sort_key',
    db.raw('(select count(*) from samples s where s.request_id = r.id) as samples'),
    db('request_tests as t').select(joinedValues(db, 't.test_code')).whereRaw('t.request_id = r.id').as('tests'),
  ];
}

/** Columns each list adds; `pr` is the row's progress (of every analysis, or for testing of the plan's scope). */
const PLAN_COLUMNS: Record<QueueName | 'client', Plan['columns']> = {
  pending: () => [],
  'for-release': (db) => [
    db.raw('case when pr.positives > 0 then 1 else 0 end as any_positive'),
    db.raw('pr.last_entered_at as last_entered'),
    db.raw('pr.conformity_rank as conformity_rank'),
  ],
  'for-testing': (db) => [db.raw('pr.total as progress_total'), db.raw('pr.complete as progress_entered')],
  released: (db) => [db.raw('r.released_at as released_at')],
  client: (db) => [
    db.raw("(select m.body from request_messages m where m.request_id = r.id and m.kind = 'rejection' order by m.id desc limit 1) as rejection_reason"),
  ],
};

type Row = Record<string, unknown>;

function presentRow(name: QueueName | 'client', row: Row): QueueRow {
  const status = row.status as RequestStatus;
  const tests = String(row.tests ?? '').split(',').filter((c) => c !== '').sort((a, b) => catalogOrder(a) - catalogOrder(b));
  const waitingSince = name === 'released' ? row.released_at : name === 'for-release' ? (row.last_entered ?? row.approved_at) : name === 'for-testing' ? row.approved_at : row.submission_date;
  const result: QueueRow = {
    requestId: Number(row.id),
    controlNumber: (row.control_number as string | null) ?? null,
    requestStatus: status,
    companyName: String(row.company_name),
    clientClassification: String(row.client_classification),
    purpose: String(row.other_testing_purpose || row.testing_purpose),
    lotBatchNo: (row.lot_batch_no as string | null) ?? null,
    samples: Number(row.samples),
    tests,
    submissionDate: String(row.submission_date),
    waitingSince: String(waitingSince ?? row.submission_date),
    dueDate: status === 'REJECTED' ? null : ((row.due_date as string | null) ?? null),
  };
  if (name === 'for-release') {
    result.anyPositive = Number(row.any_positive) === 1;
    result.conformity = conformityOf(row.conformity_rank);
  }
  if (name === 'released') result.releasedAt = String(row.released_at);
  if (name === 'for-testing') result.progress = { entered: Number(row.progress_entered), total: Number(row.progress_total) };
  if (name === 'client') result.rejectionReason = status === 'REJECTED' ? ((row.rejection_reason as string | null) ?? null) : null;
  return result;
}

/** for-testing: each request's samples with its sample information (SPEC "Sample (as read)"), joined in. */
const SAMPLE_COLUMNS = ['s.id as sample_id', 's.position', 's.sample_type_description', 's.species as sample_species', 'r.sampler_name', 'r.sample_source', 'r.production_date', 'r.expiry_date', 'r.sampling_date'];

function sampleOf(row: Row): TesterSample {
  const text = (name: string) => (row[name] as string | null) ?? null;
  return {
    sampleId: Number(row.sample_id),
    position: Number(row.position),
    sampleTypeDescription: String(row.sample_type_description ?? ''),
    species: text('sample_species'),
    lotBatchNo: text('lot_batch_no'),
    samplerName: text('sampler_name'),
    sampleSource: text('sample_source'),
    productionDate: text('production_date'),
    expiryDate: text('expiry_date'),
    samplingDate: text('sampling_date'),
  };
}

async function runPlan(db: Db, name: QueueName | 'client', plan: Plan, input: QueueInput): Promise<QueuePage> {
  const ids = (await pageOfIds(db, plan, input)).ids.as('p');
  const direction = input.sort === 'newest' ? 'desc' : 'asc';
  const withSamples = name === 'for-testing';
  const query = db
    .from(ids)
    .join('requests as r', 'r.id', 'p.id')
    .select(...baseColumns(db), ...plan.columns(db))
    .orderByRaw(`p.sort_key ${direction}, r.id ${direction}`);
  if (name === 'for-release' || name === 'for-testing') {
    const scope = name === 'for-testing' ? plan.scope : 'all';
    query.leftJoin('request_progress as pr', (on) => on.on('pr.request_id', 'r.id').andOnVal('pr.scope', scope));
  }
  if (withSamples) {
    // The tester sees how the samples arrived, in the same query (one receipt per request at most).
    joinReceipt(query, 'r').select(...RECEIPT_COLUMNS);
    query.leftJoin('samples as s', 's.request_id', 'r.id').select(...SAMPLE_COLUMNS).orderBy('s.position');
  }
  const byId = new Map<number, QueueRow>();
  let last: Row | undefined;
  for (const row of (await query) as Row[]) {
    const id = Number(row.id);
    let item = byId.get(id);
    if (!item) {
      if (byId.size === input.limit) {
        return { rows: [...byId.values()], next: { key: String(last!.sort_key), id: Number(last!.id) }, followingKey: String(row.sort_key) };
      }
      item = presentRow(name, row);
      if (withSamples) {
        item.sampleList = [];
        item.receipt = receiptOf(row as unknown as ReceiptColumns);
      }
      byId.set(id, item);
      last = row;
    }
    if (withSamples && row.sample_id !== null) item.sampleList!.push(sampleOf(row));
  }
  return { rows: [...byId.values()] };
}

/**
 * The groups a caller lists: a tester only its discipline's (403 when asking for another), the
 * desk every group or the discipline it filters on.
 */
function disciplineFor(actor: Actor, input: QueueInput): Discipline | undefined {
  const own = disciplineOf(actor.role);
  if (own && input.discipline && input.discipline !== own) throw forbidden();
  return own ?? input.discipline;
}

/** One page of a work queue, as the actor may see it. */
export async function listQueue(db: Db, actor: Actor, name: QueueName, input: QueueInput): Promise<QueuePage> {
  const desk = can(actor, 'request:review');
  // Testers read the for-release and released lists of their discipline, as GET requests/released.
  const allowed = name === 'pending' ? desk : name === 'for-release' || name === 'released' ? desk || disciplineOf(actor.role) !== null : can(actor, 'results:list-for-testing');
  if (!allowed) throw forbidden();
  const discipline = disciplineFor(actor, input);
  const groups = discipline ? DISCIPLINE_GROUPS[discipline] : undefined;
  const state = name === 'for-testing' ? (input.state ?? 'outstanding') : undefined;
  // Outstanding work is never FOR_RELEASE: that status means every analysis is complete.
  const statuses = state === 'outstanding' ? (['FOR_TESTING'] as const) : QUEUE_STATUSES[name];
  const plan: Plan = { statuses, groups, scope: scopeOfDiscipline(discipline), byRelease: name === 'released', columns: PLAN_COLUMNS[name] };
  return runPlan(db, name, plan, { ...input, state });
}

/** One page of a client's track list (the client itself, or the desk). */
export async function listClientQueue(db: Db, actor: Actor, clientUserId: number, input: QueueInput): Promise<QueuePage> {
  if (!can(actor, 'request:read', { clientUserId })) throw forbidden();
  const plan: Plan = { clientUserId, scope: 'all', columns: PLAN_COLUMNS.client };
  return runPlan(db, 'client', plan, { ...input, discipline: undefined, state: undefined });
}

/**
 * How many requests a client has in each status (the track list's status filter), one GROUP BY;
 * with `q`, of the requests that search finds, so each count says what its filter will show.
 */
export async function clientStatusCounts(db: Db, actor: Actor, clientUserId: number, q?: string): Promise<Record<RequestStatus, number>> {
  if (!can(actor, 'request:read', { clientUserId })) throw forbidden();
  const query = db('requests as r').where('r.client_user_id', clientUserId).groupBy('r.status').select('r.status as status', db.raw('count(*) as n'));
  if (q) await whereRequestSearched(db, query, q);
  const rows: { status: RequestStatus; n: number | string }[] = await query;
  const counts = Object.fromEntries(QUEUE_STATUSES.client.map((s) => [s, 0])) as Record<RequestStatus, number>;
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}

/**
 * The whole filtered list as CSV text, read QUEUE_EXPORT_CHUNK rows per query by keyset (never a
 * query per row) while it is sent. `read` is one of the list calls above; the first chunk is read
 * before this returns, so a refusal (403) is the call's answer, not a broken download.
 */
export async function queueCsvExport(read: (input: QueueInput) => Promise<QueuePage>, input: QueueInput): Promise<AsyncIterable<string>> {
  const chunk: QueueInput = { ...input, limit: QUEUE_EXPORT_CHUNK, after: undefined };
  const first = await read(chunk);
  return (async function* () {
    yield queueCsvHeader();
    for (let page = first; ; page = await read({ ...chunk, after: page.next })) {
      yield queueCsvRows(page.rows);
      if (!page.next) return;
    }
  })();
}
