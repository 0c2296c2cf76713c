// Monthly positive/negative counts per test (SPEC section 3, DESIGN.md section 10): read from the
// counters the writes keep (server/db/reportCounts.ts); the domain fills in the zero months.
import type { Knex } from 'knex';
import { readReportCounts, readReportYears } from '../db/reportCounts.js';
import { analytesOfGroup, GROUPS, type Group } from '../domain/catalog.js';
import { can, type Actor } from '../domain/policies.js';
import { forbidden } from '../errors.js';
import { buildGroupReport, monthsOfYear, type GroupReport } from '../domain/reportShape.js';

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
