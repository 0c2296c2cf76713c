// The work lists: requests released (paged, newest release first), awaiting release and awaiting
// tests (complete by default; oldest submission first). Each row carries what the screens show, never
// the wide "as read" shape, and one SQL query builds a page: the requests, their test codes, and the
// per-group completion counts (for release) or the samples (for testing). A second query counts the
// list when the page does not tell its length.
import type { Knex } from 'knex';
import { analytesOfGroup, catalogOrder, disciplineOfGroup, GROUPS, type Group } from '../../domain/catalog.js';
import { completionFromCounts, type ForReleaseRow, type GroupCount } from '../../domain/completion.js';
import { familyFlags, type ReleasedRow, type RequestListRow } from '../../domain/requestShape.js';
import type { RequestStatus } from '../../domain/requestStatus.js';
import type { ForTestingRequest } from '../../domain/resultShape.js';
import { progressCount } from '../../db/progressCounts.js';
import { scopeOfGroup } from '../../db/requestProgress.js';
import { joinedValues } from '../../db/sql.js';
import { OPEN_STATUSES } from '../../domain/requestStatus.js';
import { joinReceipt, RECEIPT_COLUMNS, receiptOf, type ReceiptColumns } from './reception.js';
import { conformityOf } from '../../db/conformity.js';

type Db = Knex | Knex.Transaction;

/** Which slice of a list: `limit` rows (all the rest when left out) after skipping `offset`. */
export interface PageRequest {
  limit?: number;
  offset?: number;
}

/** A slice of a list, and how many rows the whole list has. */
export interface Page<T> {
  rows: T[];
  total: number;
}

export interface ListRequest extends PageRequest {
  /** Only requests with a test of these groups (a tester's discipline); every request when left out. */
  groups?: readonly Group[];
}

interface Filter {
  statuses: readonly RequestStatus[];
  groups?: readonly Group[];
}

/**
 * The progress scope (server/db/requestProgress.ts) of a filter on one discipline's groups past review,
 * where every request has a progress row per discipline it has tests of; undefined otherwise.
 */
function progressScope({ statuses, groups }: Filter) {
  const disciplines = new Set(groups?.map(disciplineOfGroup));
  if (!groups || disciplines.size !== 1 || statuses.includes('PENDING_REVIEW')) return undefined;
  return [...disciplines][0];
}

/** The requests of a list, as `r`. */
function requestsOf(db: Db, filter: Filter): Knex.QueryBuilder {
  const { statuses, groups } = filter;
  const query = statuses.length === 1 ? db('requests as r').where('r.status', statuses[0]) : db('requests as r').whereIn('r.status', statuses);
  const scope = progressScope(filter);
  if (scope) {
    query.whereExists(db('request_progress as g').select(db.raw('1')).whereRaw('g.request_id = r.id').where('g.scope', scope));
  } else if (groups) {
    const codes = groups.flatMap((g) => analytesOfGroup(g).map((a) => a.code));
    query.whereExists(db('request_tests as g').select(db.raw('1')).whereRaw('g.request_id = r.id').whereIn('g.test_code', codes));
  }
  return query;
}

const SUMMARY_COLUMNS = ['r.id', 'r.control_number', 'r.submission_date', 'r.status'];
const OLDEST_FIRST = [{ column: 'r.submission_date' }, { column: 'r.id' }];

interface SummaryColumns {
  id: number;
  control_number: string | null;
  submission_date: string;
  status: string;
  /** Test codes joined with commas. */
  tests: string | null;
}

/** The request's test codes, joined by SQL, as a column `tests`. */
const testsColumn = (db: Db) => db('request_tests as t').select(joinedValues(db, 't.test_code')).whereRaw('t.request_id = r.id').as('tests');

function testsOf(row: SummaryColumns): string[] {
  return (row.tests ?? '').split(',').filter((code) => code !== '').sort((a, b) => catalogOrder(a) - catalogOrder(b));
}

function summaryOf(row: SummaryColumns): RequestListRow {
  return {
    requestId: Number(row.id),
    controlNumber: row.control_number,
    submissionDate: row.submission_date,
    requestStatus: row.status as RequestStatus,
    ...familyFlags(testsOf(row)),
  };
}

/** `query` limited to the page asked for. */
export function sliced(query: Knex.QueryBuilder, { limit, offset = 0 }: PageRequest): Knex.QueryBuilder {
  if (limit !== undefined) query.limit(limit);
  if (offset > 0) query.offset(offset);
  return query;
}

/** The length of a list when its page of `fetched` rows tells it (the page ends the list), else undefined. */
export function lengthTold({ limit, offset = 0 }: PageRequest, fetched: number): number | undefined {
  const endsTheList = (limit === undefined || fetched < limit) && (fetched > 0 || offset === 0);
  return endsTheList ? offset + fetched : undefined;
}

/**
 * The length of the list: told by a page that ends it, otherwise read from the counts the writes
 * keep (db/progressCounts.ts): of every request ('all'), or of one discipline's progress rows. A
 * filter on groups of several disciplines, or on one in review, is counted.
 */
async function totalOf(db: Db, filter: Filter, page: PageRequest, fetched: number): Promise<number> {
  const told = lengthTold(page, fetched);
  if (told !== undefined) return told;
  const scope = filter.groups ? progressScope(filter) : 'all';
  if (scope) return progressCount(db, scope, filter.statuses);
  const [{ n }] = await requestsOf(db, filter).count({ n: '*' });
  return Number(n);
}

/** GET requests/released: newest release first. */
export async function listReleased(db: Db, { groups, ...page }: ListRequest): Promise<Page<ReleasedRow>> {
  const filter: Filter = { statuses: ['RELEASED'], groups };
  const rows: Array<SummaryColumns & { released_at: string }> = await sliced(
    requestsOf(db, filter)
      .select(...SUMMARY_COLUMNS, 'r.released_at', testsColumn(db))
      .orderBy([{ column: 'r.released_at', order: 'desc' }, { column: 'r.id', order: 'desc' }]),
    page,
  );
  return {
    rows: rows.map((row) => ({ ...summaryOf(row), releasedAt: row.released_at })),
    total: await totalOf(db, filter, page, rows.length),
  };
}

/**
 * GET requests/for-release: oldest submission first, with the completion of each group and family,
 * read from each group's progress row (none: the request has no analysis of that group), and its
 * conformity from the row of every analysis.
 */
export async function listForRelease(db: Db, { groups, ...page }: ListRequest): Promise<Page<ForReleaseRow>> {
  const filter: Filter = { statuses: ['FOR_RELEASE'], groups };
  const query = requestsOf(db, filter).select(...SUMMARY_COLUMNS, testsColumn(db), progressColumn(db)).orderBy(OLDEST_FIRST);
  const rows: Array<SummaryColumns & { progress: string | null }> = await sliced(query, page);
  return {
    rows: rows.map((row) => {
      const progress = progressOf(row.progress);
      const byGroup: Partial<Record<Group, GroupCount>> = {};
      for (const g of GROUPS) byGroup[g] = progress.get(scopeOfGroup(g)) ?? { total: 0, complete: 0 };
      return { ...summaryOf(row), ...completionFromCounts(byGroup), conformity: conformityOf(progress.get('all')?.rank) };
    }),
    total: await totalOf(db, filter, page, rows.length),
  };
}

/**
 * The request's progress rows, joined by SQL as `scope:total:complete:rank` texts, as a column
 * `progress`: one subquery, where a join per group made PostgreSQL plan a join of eight tables for
 * every page right after a commit.
 */
const progressColumn = (db: Db) =>
  db('request_progress as p')
    .select(joinedValues(db, db.raw("p.scope || ':' || p.total || ':' || p.complete || ':' || coalesce(cast(p.conformity_rank as text), '')")))
    .whereRaw('p.request_id = r.id')
    .as('progress');

function progressOf(joined: string | null): Map<string, GroupCount & { rank: number | null }> {
  const byScope = new Map<string, GroupCount & { rank: number | null }>();
  for (const part of (joined ?? '').split(',').filter((p) => p !== '')) {
    const [scope, total, complete, rank] = part.split(':');
    byScope.set(scope, { total: Number(total), complete: Number(complete), rank: rank === '' ? null : Number(rank) });
  }
  return byScope;
}

interface ForTestingColumns extends SummaryColumns {
  lot_batch_no: string | null;
  sampler_name: string | null;
  sample_source: string | null;
  production_date: string | null;
  expiry_date: string | null;
  sampling_date: string | null;
  sample_id: number | null;
  position: number | null;
  sample_type_description: string | null;
  sample_species: string | null;
}

/**
 * GET requests/for-testing: requests awaiting results (FOR_TESTING, or FOR_RELEASE until released),
 * oldest submission first, with their tests and their samples, each with its request's sample
 * information (SPEC section 3, "Sample (as read)"). One query: the page of requests joined with
 * their samples.
 */
export async function listForTesting(db: Db, { groups, ...page }: ListRequest): Promise<Page<ForTestingRequest>> {
  const filter: Filter = { statuses: OPEN_STATUSES, groups };
  const requests = sliced(
    requestsOf(db, filter)
      .select(...SUMMARY_COLUMNS, 'r.lot_batch_no', 'r.sampler_name', 'r.sample_source', 'r.production_date', 'r.expiry_date', 'r.sampling_date', testsColumn(db))
      .orderBy(OLDEST_FIRST),
    page,
  ).as('r');
  const rows: Array<ForTestingColumns & ReceiptColumns> = await joinReceipt(db.from(requests), 'r')
    .leftJoin('samples as s', 's.request_id', 'r.id')
    .select('r.*', 's.id as sample_id', 's.position', 's.sample_type_description', 's.species as sample_species', ...RECEIPT_COLUMNS)
    .orderBy([...OLDEST_FIRST, { column: 's.position' }]);

  const byId = new Map<number, ForTestingRequest>();
  for (const row of rows) {
    const id = Number(row.id);
    let request = byId.get(id);
    if (!request) {
      request = { ...summaryOf(row), tests: testsOf(row), samples: [], receipt: receiptOf(row) };
      byId.set(id, request);
    }
    if (row.sample_id === null) continue;
    request.samples.push({
      sampleId: Number(row.sample_id),
      position: Number(row.position),
      sampleTypeDescription: row.sample_type_description ?? '',
      species: row.sample_species,
      lotBatchNo: row.lot_batch_no,
      samplerName: row.sampler_name,
      sampleSource: row.sample_source,
      productionDate: row.production_date,
      expiryDate: row.expiry_date,
      samplingDate: row.sampling_date,
    });
  }
  return { rows: [...byId.values()], total: await totalOf(db, filter, page, byId.size) };
}
