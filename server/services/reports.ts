// Monthly positive/negative counts per test (SPEC section 3, DESIGN.md section 10): read from the
// counters the writes keep (server/db/reportCounts.ts); the domain fills in the zero months.
import type { Knex } from 'knex';
import { readReportCounts, readReportYears } from '../db/reportCounts.js';
import { analytesOfGroup, catalogOrder, disciplineOfGroup, findAnalyte, GROUPS, type Group } from '../domain/catalog.js';
import type { NonConformityReport } from '../domain/conformityReport.js';
import { can, type Actor } from '../domain/policies.js';
import { forbidden } from '../errors.js';
import { buildGroupReport, monthsOfYear, type GroupReport } from '../domain/reportShape.js';

export type { NonConformityReport, NonConformityRow } from '../domain/conformityReport.js';

/**
 * The report of `group` for `year`. Every analysis with a remark counts, released or not (they are
 * lab results), except those of rejected requests; it counts in its `report_month` (the month of its
 * analysis date, or of the save when it has none).
 */
export async function monthlyReport(db: Knex | Knex.Transaction, group: Group, year: number): Promise<GroupReport> {
  const months = monthsOfYear(year);
  const counts = await readReportCounts(db, analytesOfGroup(group).map((a) => a.code), months[0], months[11]);
  return buildGroupReport(
    group,
    year,
    counts.map((c) => ({ testCode: c.testCode, month: c.reportMonth, remark: c.remark, count: c.n })),
  );
}

/**
 * The years, most recent first, in which the reports `actor` may read (every group for the desk, a
 * tester's own discipline's) have at least one count: what the database screens' year picker offers.
 * One query over the counters. 403 when the actor reads no report.
 */
export async function reportYears(db: Knex | Knex.Transaction, actor: Actor): Promise<number[]> {
  const readable = GROUPS.filter((group) => can(actor, 'reports:read', { group }));
  if (readable.length === 0) throw forbidden();
  return readReportYears(db, readable.flatMap((g) => analytesOfGroup(g).map((a) => a.code)));
}

/**
 * GET /api/reports/nonconformities?year=: per analyte and month of `year` (the month a result counts
 * in, as the monthly reports), how many results were judged non-conforming, inconclusive and
 * conforming; rejected requests do not count. The desk reads every discipline, a tester its own.
 */
export async function nonConformityReport(db: Knex, actor: Actor, year: number): Promise<NonConformityReport> {
  const readable = GROUPS.filter((group) => can(actor, 'reports:read', { group }));
  if (readable.length === 0) throw forbidden();
  return nonConformityCounts(db, readable, year);
}

/**
 * The counts of nonConformityReport for the analytes of `groups`, with no one to check (`labctl report
 * monthly --conformity`, run by whoever may open the database). One query, aggregated by the database.
 */
export async function nonConformityCounts(db: Knex | Knex.Transaction, groups: readonly Group[], year: number): Promise<NonConformityReport> {
  const codes = groups.flatMap((g) => analytesOfGroup(g).map((a) => a.code));
  const months = monthsOfYear(year);
  const counted = (outcome: string) => db.raw(`sum(case when a.decision_outcome = ? then 1 else 0 end) as ${outcome}`, [outcome]);
  const rows: Array<{ test_code: string; report_month: string; does_not_conform: number | string; inconclusive: number | string; conforms: number | string }> = await db('analyses as a')
    .join('requests as r', 'r.id', 'a.request_id')
    .whereIn('a.decision_outcome', ['does_not_conform', 'inconclusive', 'conforms'])
    .whereBetween('a.report_month', [months[0], months[months.length - 1]])
    .whereIn('a.test_code', codes)
    .whereNot('r.status', 'REJECTED')
    .groupBy('a.test_code', 'a.report_month')
    .select('a.test_code', 'a.report_month', counted('does_not_conform'), counted('inconclusive'), counted('conforms'));
  return {
    year,
    rows: rows
      .map((r) => ({
        testCode: r.test_code,
        discipline: disciplineOfGroup(findAnalyte(r.test_code)!.group),
        month: r.report_month,
        doesNotConform: Number(r.does_not_conform),
        inconclusive: Number(r.inconclusive),
        conforms: Number(r.conforms),
      }))
      .sort((a, b) => a.month.localeCompare(b.month) || catalogOrder(a.testCode) - catalogOrder(b.testCode)),
  };
}
