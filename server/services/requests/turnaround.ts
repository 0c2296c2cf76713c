// The turnaround dashboard's reads (issues 15, 22 and 25), two statements whatever the number of
// requests (three when the list is filtered by days: its count). The load per discipline is counted on the open requests' progress rows (one per request
// and discipline it has tests of, and one 'all' row: the total), from an index of the open rows alone.
// The list is a keyset page in urgency order: its inner query walks migration 015's partial index
// from the cursor on and takes limit + 1 ids (the extra one says whether a next page exists); the
// outer query adds what the screen shows for those rows only. The chart (its own call, so that the
// list's pages do not compute it again) sums the progress rows per discipline and day of submission.
import type { Knex } from 'knex';
import { disciplineOfFamily, FAMILIES, type Family } from '../../domain/catalog.js';
import { can, type Actor } from '../../domain/policies.js';
import type { RequestStatus } from '../../domain/requestStatus.js';
import { familiesOf } from '../../domain/requestShape.js';
import { QUEUE_EXPORT_CHUNK } from '../../domain/queue.js';
import {
  ageInDays,
  chartWindow,
  daysLate,
  disciplineLoads,
  familiesOfFilter,
  OPEN_REQUEST_STATUSES,
  turnaroundCsvHeader,
  turnaroundCsvRows,
  weeklyTurnaround,
  type DayCounts,
  type Turnaround,
  type TurnaroundFilter,
  type TurnaroundWeeks,
  type TurnaroundRequest,
  type UrgencyCursor,
} from '../../domain/turnaround.js';
import { dayAfter } from '../../domain/auditTrail.js';
import { NO_DUE_DATE } from '../../db/requestProgress.js';
import { joinedValues } from '../../db/sql.js';
import { forbidden } from '../../errors.js';

export interface TurnaroundPageInput extends TurnaroundFilter {
  limit: number;
  after?: UrgencyCursor;
}

export interface TurnaroundPage {
  turnaround: Turnaround;
  /** Open requests the filter lists, in all. */
  total: number;
  /** The cursor of the next page; absent on the last page. */
  next?: UrgencyCursor;
}

/** The urgency key as migration 015 indexes it. */
const DUE_KEY = `coalesce(r.due_date, '${NO_DUE_DATE}')`;

/**
 * `column IN (the open statuses)` with the statuses written out: SQLite uses a partial index only when
 * the query repeats its WHERE term, which a bound value does not.
 */
const isOpen = (db: Knex, column: string) => db.raw(`${column} in (${OPEN_REQUEST_STATUSES.map(() => '?').join(', ')})`, OPEN_REQUEST_STATUSES).toQuery();

const ALL = 'all';

/** Open, late and the oldest submission per discipline, and the open requests in all ('all'). */
async function loads(db: Knex, today: string) {
  const rows: Array<{ scope: string; open_count: number | string; late: number | string; oldest: string }> = await db('request_progress')
    .whereRaw(isOpen(db, 'status'))
    .whereIn('scope', [ALL, ...FAMILIES.map(disciplineOfFamily)])
    .groupBy('scope')
    .select('scope', db.raw('count(*) as open_count'), db.raw('sum(case when due_key < ? then 1 else 0 end) as late', [today]), db.raw('min(submission_date) as oldest'));
  const byScope = new Map(rows.map((r) => [r.scope, { open: Number(r.open_count), late: Number(r.late), oldest: r.oldest }]));
  return {
    /** How many open (or late) requests a scope has: the list's length when it is filtered by no days. */
    total: (scope: string, late: boolean | undefined) => byScope.get(scope)?.[late ? 'late' : 'open'] ?? 0,
    disciplines: disciplineLoads(FAMILIES.flatMap((family) => {
      const counts = byScope.get(disciplineOfFamily(family));
      return counts ? [{ family, ...counts }] : [];
    })),
  };
}

type Row = { id: number; control_number: string | null; status: string; company_name: string; submission_date: string; due_date: string | null; due_key: string; tests: string | null };

/** Before every open request: where the first page starts. */
const START: UrgencyCursor = { dueKey: '', submissionDate: '', id: 0 };

/**
 * The open requests the filter names, as `r`: of a discipline (it has a progress row of that scope),
 * submitted within the days, and only those past their due date (a range of the urgency index's first key).
 */
function openRequests(db: Knex, filter: TurnaroundFilter, today: string): Knex.QueryBuilder {
  const query = db('requests as r').whereRaw(isOpen(db, 'r.status'));
  if (filter.discipline) query.whereExists(db('request_progress as g').select(db.raw('1')).whereRaw('g.request_id = r.id').where('g.scope', filter.discipline));
  if (filter.since) query.where('r.submission_date', '>=', filter.since);
  if (filter.until) query.where('r.submission_date', '<', dayAfter(filter.until));
  if (filter.late) query.whereRaw(`${DUE_KEY} < ?`, [today]);
  return query;
}

async function pageOfOpenRequests(db: Knex, today: string, { limit, after = START, ...filter }: TurnaroundPageInput): Promise<Row[]> {
  // The row value says where the page starts. The range on the first key is what SQLite seeks the
  // index on: without one (the first page) it may read a status range and sort it instead.
  const ids = openRequests(db, filter, today)
    .select('r.id', db.raw(`${DUE_KEY} as due_key`), 'r.submission_date')
    .whereRaw(`${DUE_KEY} >= ? and (${DUE_KEY}, r.submission_date, r.id) > (?, ?, ?)`, [after.dueKey, after.dueKey, after.submissionDate, after.id])
    .orderByRaw(`${DUE_KEY}, r.submission_date, r.id`)
    .limit(limit + 1);
  return db
    .from(ids.as('p'))
    .join('requests as r', 'r.id', 'p.id')
    .select('r.id', 'r.control_number', 'r.status', 'r.company_name', 'r.submission_date', 'r.due_date', 'p.due_key')
    .select(db('request_tests as t').select(joinedValues(db, 't.test_code')).whereRaw('t.request_id = r.id').as('tests'))
    .orderBy(['p.due_key', 'p.submission_date', 'p.id']);
}

const presented = (r: Row, today: string): TurnaroundRequest => ({
  requestId: Number(r.id),
  controlNumber: r.control_number,
  status: r.status as RequestStatus,
  companyName: r.company_name,
  submissionDate: r.submission_date,
  dueDate: r.due_date,
  families: familiesOf(String(r.tests ?? '').split(',')),
  ageDays: ageInDays(r.submission_date, today),
  daysLate: daysLate(r.due_date, today),
});

/** A page's rows (limit + 1 read) as shown, and where the next page starts while rows remain. */
function split(rows: Row[], limit: number): { shown: Row[]; next?: UrgencyCursor } {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return { shown, ...(rows.length > limit && last ? { next: { dueKey: last.due_key, submissionDate: last.submission_date, id: Number(last.id) } } : {}) };
}

/** How many open requests a filter lists: the loads count them per discipline, open and late, but not per day. */
async function countOpen(db: Knex, filter: TurnaroundFilter, today: string): Promise<number> {
  const [{ n }] = await openRequests(db, filter, today).count({ n: '*' });
  return Number(n);
}

/**
 * Per discipline and week of submission within the window, how many requests were released on time,
 * are late (released after their due date or open past it) and are open not yet due: one GROUP BY
 * over the progress rows of the disciplines (migration 020's (scope, submission_date) index) per day,
 * folded into weeks in server/domain. Rejected requests count nowhere.
 */
export async function turnaroundWeeks(db: Knex, actor: Actor, today: string, filter: TurnaroundFilter): Promise<TurnaroundWeeks> {
  if (!can(actor, 'request:review')) throw forbidden();
  const window = chartWindow(today, filter);
  const families = familiesOfFilter(filter);
  const open = isOpen(db, 'p.status');
  const releasedLate = "p.status = 'RELEASED' and substr(r.released_at, 1, 10) > p.due_key";
  const rows: Array<{ scope: string; day: string; on_time: number | string; late: number | string; open_count: number | string }> = await db('request_progress as p')
    .join('requests as r', 'r.id', 'p.request_id')
    .whereIn('p.scope', families.map(disciplineOfFamily))
    .where('p.submission_date', '>=', window.since)
    .where('p.submission_date', '<', dayAfter(window.until))
    .whereNot('p.status', 'REJECTED')
    .groupByRaw('p.scope, substr(p.submission_date, 1, 10)')
    .select(
      'p.scope',
      db.raw('substr(p.submission_date, 1, 10) as day'),
      db.raw(`sum(case when p.status = 'RELEASED' and not (${releasedLate}) then 1 else 0 end) as on_time`),
      db.raw(`sum(case when (${releasedLate}) or (${open} and p.due_key < ?) then 1 else 0 end) as late`, [today]),
      db.raw(`sum(case when ${open} and p.due_key >= ? then 1 else 0 end) as open_count`, [today]),
    );
  const familyOf = new Map<string, Family>(families.map((f) => [disciplineOfFamily(f), f]));
  const days: DayCounts[] = rows.map((r) => ({ family: familyOf.get(r.scope)!, day: r.day, onTime: Number(r.on_time), late: Number(r.late), open: Number(r.open_count) }));
  return { today, window, weeks: weeklyTurnaround(days, window, families) };
}

export async function turnaround(db: Knex, actor: Actor, today: string, page: TurnaroundPageInput): Promise<TurnaroundPage> {
  if (!can(actor, 'request:review')) throw forbidden();
  const filter: TurnaroundFilter = { discipline: page.discipline, since: page.since, until: page.until, late: page.late };
  const [{ total, disciplines }, rows, count] = await Promise.all([
    loads(db, today),
    pageOfOpenRequests(db, today, page),
    filter.since || filter.until ? countOpen(db, filter, today) : undefined,
  ]);
  const { shown, next } = split(rows, page.limit);
  return { turnaround: { today, disciplines, requests: shown.map((r) => presented(r, today)) }, total: count ?? total(filter.discipline ?? ALL, filter.late), ...(next ? { next } : {}) };
}

/**
 * Every open request the filter lists in urgency order as CSV text, read QUEUE_EXPORT_CHUNK rows per query by keyset
 * while it is sent (the desk only: checked before this returns).
 */
export function turnaroundCsvExport(db: Knex, actor: Actor, today: string, filter: TurnaroundFilter): AsyncIterable<string> {
  if (!can(actor, 'request:review')) throw forbidden();
  return (async function* () {
    yield turnaroundCsvHeader();
    for (let after: UrgencyCursor | undefined; ; ) {
      const { shown, next } = split(await pageOfOpenRequests(db, today, { ...filter, limit: QUEUE_EXPORT_CHUNK, after }), QUEUE_EXPORT_CHUNK);
      yield turnaroundCsvRows(shown.map((r) => presented(r, today)));
      if (!next) return;
      after = next;
    }
  })();
}
