// The monthly positive/negative report of SPEC section 3 ("Report data"): per result group, one map
// per test named '{reportName}PosNegCountsByMonthAndYear', keyed 'YYYY-MM', with all twelve months of
// the year present. Pure, so the server, the CLI and the UI build, total and export it alike.
import { analytesOfGroup, GROUPS, type Analyte, type Group } from './catalog.js';
import { csvLine } from './csv.js';

export interface PosNeg {
  positive: number;
  negative: number;
}

/** `{ "standardPlateCountPosNegCountsByMonthAndYear": { "2026-01": { positive, negative }, ... }, ... }` */
export type GroupReport = Record<string, Record<string, PosNeg>>;

/** Path segment of `GET api/reports/{path}` per group (SPEC section 7). */
export const REPORT_PATHS: Record<Group, string> = {
  microbio: 'microbioreport',
  chemMicrobial: 'chemmicrobialreport',
  chemElisa: 'chemelisareport',
  molBio: 'molbioreport',
};

export function groupOfReportPath(path: string): Group | undefined {
  return GROUPS.find((g) => REPORT_PATHS[g] === path);
}

/** Table titles of the database screens. */
export const REPORT_TITLES: Record<Group, string> = {
  microbio: 'Microbiology',
  chemMicrobial: 'Chemical Microbial Inhibition',
  chemElisa: 'Chemical ELISA',
  molBio: 'Molecular Biology',
};

export const reportKey = (analyte: Pick<Analyte, 'reportName'>) => `${analyte.reportName}PosNegCountsByMonthAndYear`;

/** Years a report can be asked for. */
export const REPORT_YEAR_MIN = 2000;
export const REPORT_YEAR_MAX = 2100;

/** '2026-01' ... '2026-12'. */
export function monthsOfYear(year: number): string[] {
  return Array.from({ length: 12 }, (_, i) => `${year}-${String(i + 1).padStart(2, '0')}`);
}

/** One counted cell, as SQL groups it: test, month, remark. */
export interface RemarkCount {
  testCode: string;
  month: string;
  remark: string;
  count: number;
}

/** The report of `group` for `year`: every test and month present, zero where nothing was counted. */
export function buildGroupReport(group: Group, year: number, counts: readonly RemarkCount[]): GroupReport {
  const months = monthsOfYear(year);
  const report: GroupReport = {};
  const keyOf = new Map<string, string>();
  for (const a of analytesOfGroup(group)) {
    const key = reportKey(a);
    keyOf.set(a.code, key);
    report[key] = Object.fromEntries(months.map((m) => [m, { positive: 0, negative: 0 }]));
  }
  for (const c of counts) {
    const cell = report[keyOf.get(c.testCode) ?? '']?.[c.month];
    if (cell && (c.remark === 'positive' || c.remark === 'negative')) cell[c.remark] += c.count;
  }
  return report;
}

/** The months a report covers, in order (the keys of its maps). */
export function reportMonths(report: GroupReport): string[] {
  const months = new Set<string>();
  for (const byMonth of Object.values(report)) for (const m of Object.keys(byMonth)) months.add(m);
  return [...months].sort();
}

const ZERO: PosNeg = { positive: 0, negative: 0 };

/** Counts of one test in one month (zero when absent). */
export function countsOf(report: GroupReport, analyte: Analyte, month: string): PosNeg {
  return report[reportKey(analyte)]?.[month] ?? ZERO;
}

/** Positives and negatives of every test of `group` in `month`. */
export function monthTotal(report: GroupReport, group: Group, month: string): PosNeg {
  return analytesOfGroup(group).reduce(
    (sum, a) => {
      const c = countsOf(report, a, month);
      return { positive: sum.positive + c.positive, negative: sum.negative + c.negative };
    },
    { positive: 0, negative: 0 },
  );
}

/**
 * The report table as CSV: a Month column, a Positive and a Negative column per test (named after
 * the test's label) and the month's totals. Lines end with CRLF as RFC 4180 says.
 */
export function reportCsv(group: Group, report: GroupReport): string {
  const analytes = analytesOfGroup(group);
  const header = ['Month', ...analytes.flatMap((a) => [`${a.label} Positive`, `${a.label} Negative`]), 'Total Positive', 'Total Negative'];
  const rows = reportMonths(report).map((month) => {
    const total = monthTotal(report, group, month);
    return [month, ...analytes.flatMap((a) => {
      const c = countsOf(report, a, month);
      return [c.positive, c.negative];
    }), total.positive, total.negative];
  });
  return [header, ...rows].map(csvLine).join('\r\n') + '\r\n';
}
