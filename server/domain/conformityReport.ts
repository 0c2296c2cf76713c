// Issue 26: the monthly counts of statements of conformity (GET /api/reports/nonconformities), and the
// tables the database screens and `labctl report monthly --conformity` build from them. Pure, so the
// server, the CLI and the UI count, total and export them alike.
import { analytesOfGroup, type Analyte, type Group } from './catalog.js';
import { csvLine } from './csv.js';
import { monthsOfYear } from './reportShape.js';
import type { Discipline } from './roles.js';

/** One analyte's judged results of one month. */
export interface NonConformityRow {
  testCode: string;
  discipline: Discipline;
  month: string;
  doesNotConform: number;
  inconclusive: number;
  conforms: number;
}

/** The body of GET /api/reports/nonconformities: only the analyte-months with a judged result. */
export interface NonConformityReport {
  year: number;
  rows: NonConformityRow[];
}

export type ConformityCounts = Pick<NonConformityRow, 'doesNotConform' | 'inconclusive' | 'conforms'>;

/** The three counts in the order every table and file gives them, with their column names. */
export const CONFORMITY_COLUMNS: readonly { key: keyof ConformityCounts; label: string }[] = [
  { key: 'doesNotConform', label: 'Does not conform' },
  { key: 'inconclusive', label: 'Inconclusive' },
  { key: 'conforms', label: 'Conforms' },
];

/** Nothing judged. */
export const NO_JUDGMENTS: ConformityCounts = { doesNotConform: 0, inconclusive: 0, conforms: 0 };

/** Two counts summed. */
export const addConformity = (a: ConformityCounts, b: ConformityCounts): ConformityCounts => ({
  doesNotConform: a.doesNotConform + b.doesNotConform,
  inconclusive: a.inconclusive + b.inconclusive,
  conforms: a.conforms + b.conforms,
});

/** The counts of one analyte in one month (zero when nothing was judged). */
export function conformityOf(report: NonConformityReport, analyte: Pick<Analyte, 'code'>, month: string): ConformityCounts {
  return report.rows.find((r) => r.testCode === analyte.code && r.month === month) ?? NO_JUDGMENTS;
}

/** The counts of every analyte of `group` in `month`, or over the year when `month` is omitted. */
export function conformityTotal(report: NonConformityReport, group: Group, month?: string): ConformityCounts {
  const codes = new Set(analytesOfGroup(group).map((a) => a.code));
  return report.rows.filter((r) => codes.has(r.testCode) && (month === undefined || r.month === month)).reduce(addConformity, NO_JUDGMENTS);
}

/** Whether anything of `group` was judged in the report's year. */
export function hasJudgedResults(report: NonConformityReport, group: Group): boolean {
  const total = conformityTotal(report, group);
  return total.doesNotConform + total.inconclusive + total.conforms > 0;
}

/**
 * The statements-of-conformity table of `group` as CSV, laid out as the positive/negative one: a Month
 * column for each month of the year, three columns per test (`<test> Does not conform`, `<test>
 * Inconclusive`, `<test> Conforms`) and the month's totals. Lines end with CRLF.
 */
export function conformityCsv(group: Group, report: NonConformityReport): string {
  const analytes = analytesOfGroup(group);
  const header = ['Month', ...[...analytes.map((a) => a.label), 'Total'].flatMap((name) => CONFORMITY_COLUMNS.map((c) => `${name} ${c.label}`))];
  const rows = monthsOfYear(report.year).map((month) => {
    const cells = [...analytes.map((a) => conformityOf(report, a, month)), conformityTotal(report, group, month)];
    return [month, ...cells.flatMap((counts) => CONFORMITY_COLUMNS.map((c) => counts[c.key]))];
  });
  return [header, ...rows].map(csvLine).join('\r\n') + '\r\n';
}
