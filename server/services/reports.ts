// Monthly positive/negative counts per test (SPEC section 3, DESIGN.md section 10): SQL groups the
// analyses by test, report month and remark in one query; the domain fills in the zero months.
import type { Knex } from 'knex';
import { analytesOfGroup, type Group } from '../domain/catalog.js';
import { buildGroupReport, monthsOfYear, type GroupReport } from '../domain/reportShape.js';

/**
 * The report of `group` for `year`. Every analysis with a remark counts, released or not (they are
 * lab results), except those of rejected requests; it counts in its `report_month` (the month of its
 * analysis date, or of the save when it has none).
 */
export async function monthlyReport(db: Knex | Knex.Transaction, group: Group, year: number): Promise<GroupReport> {
  const months = monthsOfYear(year);
  const rows: Array<{ test_code: string; report_month: string; remark: string; n: number | string }> = await db('analyses as a')
    .join('requests as r', 'r.id', 'a.request_id')
    .whereIn('a.test_code', analytesOfGroup(group).map((a) => a.code))
    .whereBetween('a.report_month', [months[0], months[11]])
    .whereIn('a.remark', ['positive', 'negative'])
    .whereNot('r.status', 'REJECTED')
    .groupBy('a.test_code', 'a.report_month', 'a.remark')
    .select('a.test_code', 'a.report_month', 'a.remark')
    .count({ n: '*' });
  return buildGroupReport(
    group,
    year,
    rows.map((r) => ({ testCode: r.test_code, month: r.report_month, remark: r.remark, count: Number(r.n) })),
  );
}
