// The monthly report counters (table report_counts, migration 007): for each report month, test and
// remark, how many analyses of requests that are not rejected have that remark. Kept in the same
// transaction as every write that changes them, so a report reads a few dozen rows instead of
// grouping a million analyses, with the numbers the GROUP BY over analyses would give.
import type { Knex } from 'knex';
import { slices } from './sql.js';

type Db = Knex | Knex.Transaction;

const COUNTED_REMARKS = ['positive', 'negative'] as const;

export interface ReportCount {
  reportMonth: string;
  testCode: string;
  remark: string;
  n: number;
}

const CHUNK = 500;
const keyOf = (c: Pick<ReportCount, 'reportMonth' | 'testCode' | 'remark'>) => `${c.reportMonth}|${c.testCode}|${c.remark}`;

/** Analyses that count in a report: a remark and a report month (set when a value is saved). */
function countedAnalyses(db: Db, alias: string) {
  return db(`analyses as ${alias}`)
    .whereIn(`${alias}.remark`, COUNTED_REMARKS)
    .whereNotNull(`${alias}.report_month`)
    .groupBy(`${alias}.report_month`, `${alias}.test_code`, `${alias}.remark`);
}

/** The counts the analyses of `requestIds` contribute, whatever their requests' status. */
export async function countsOfRequests(db: Db, requestIds: readonly number[]): Promise<Map<string, ReportCount>> {
  const counts = new Map<string, ReportCount>();
  for (let i = 0; i < requestIds.length; i += CHUNK) {
    const rows: Array<{ report_month: string; test_code: string; remark: string; n: number | string }> = await countedAnalyses(db, 'a')
      .whereIn('a.request_id', requestIds.slice(i, i + CHUNK))
      .select('a.report_month', 'a.test_code', 'a.remark')
      .count({ n: '*' });
    for (const r of rows) {
      const count = { reportMonth: r.report_month, testCode: r.test_code, remark: r.remark, n: Number(r.n) };
      const key = keyOf(count);
      counts.set(key, { ...count, n: (counts.get(key)?.n ?? 0) + count.n });
    }
  }
  return counts;
}

/**
 * The counts `rows` of analyses contribute (the rule of countsOfRequests, without reading them): a
 * writer that knows every row it changes, before and after, moves the counters by countsOfRows of
 * the rows after minus countsOfRows of the same rows before.
 */
export function countsOfRows(rows: Iterable<{ report_month: string | null; test_code: string; remark: string | null }>): Map<string, ReportCount> {
  const counts = new Map<string, ReportCount>();
  for (const r of rows) {
    if (r.report_month === null || !(COUNTED_REMARKS as readonly (string | null)[]).includes(r.remark)) continue;
    const count = { reportMonth: r.report_month, testCode: r.test_code, remark: r.remark!, n: 1 };
    const key = keyOf(count);
    const earlier = counts.get(key);
    if (earlier) earlier.n += 1;
    else counts.set(key, count);
  }
  return counts;
}

/** Adds `after - before` to the counters (upserts in key order, so concurrent writers never deadlock). */
export async function applyCountChanges(db: Db, before: Map<string, ReportCount>, after: Map<string, ReportCount>): Promise<void> {
  for (const upsert of countChanges(db, before, after)) await upsert;
}

/** The upserts adding `after - before` to the counters, to run with the change's other writes (runTogether, db/sql.ts). */
export function countChanges(db: Db, before: Map<string, ReportCount>, after: Map<string, ReportCount>): Knex.QueryBuilder[] {
  const deltas = new Map<string, ReportCount>();
  for (const [key, c] of after) deltas.set(key, { ...c });
  for (const [key, c] of before) deltas.set(key, { ...c, n: (deltas.get(key)?.n ?? 0) - c.n });
  const rows = [...deltas.entries()]
    .filter(([, c]) => c.n !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, c]) => ({ report_month: c.reportMonth, test_code: c.testCode, remark: c.remark, n: c.n }));
  return slices(rows, CHUNK).map((chunk) =>
    db('report_counts')
      .insert(chunk)
      .onConflict(['report_month', 'test_code', 'remark'])
      .merge({ n: db.raw('?? + excluded.n', ['report_counts.n']) }),
  );
}

/** Recomputes every counter from the analyses (the migration's backfill). */
export async function rebuildReportCounts(db: Db): Promise<void> {
  await db('report_counts').delete();
  await db
    .insert(
      countedAnalyses(db, 'a')
        .join('requests as r', 'r.id', 'a.request_id')
        .whereNot('r.status', 'REJECTED')
        .select('a.report_month', 'a.test_code', 'a.remark')
        .count({ n: '*' }),
    )
    .into(db.raw('?? (??, ??, ??, ??)', ['report_counts', 'report_month', 'test_code', 'remark', 'n']));
}

/** The counters of `testCodes` in the months from `firstMonth` to `lastMonth` (YYYY-MM). */
export async function readReportCounts(db: Db, testCodes: readonly string[], firstMonth: string, lastMonth: string): Promise<ReportCount[]> {
  const rows: Array<{ report_month: string; test_code: string; remark: string; n: number | string }> = await db('report_counts')
    .whereIn('test_code', testCodes)
    .whereBetween('report_month', [firstMonth, lastMonth])
    .where('n', '>', 0)
    .select('report_month', 'test_code', 'remark', 'n');
  return rows.map((r) => ({ reportMonth: r.report_month, testCode: r.test_code, remark: r.remark, n: Number(r.n) }));
}

/** The years (YYYY, most recent first) in which any of `testCodes` has a count. */
export async function readReportYears(db: Db, testCodes: readonly string[]): Promise<number[]> {
  const rows: Array<{ year: string }> = await db('report_counts')
    .whereIn('test_code', testCodes)
    .where('n', '>', 0)
    .distinct(db.raw('substr(report_month, 1, 4) as year'))
    .orderBy('year', 'desc');
  return rows.map((r) => Number(r.year));
}
