import type { Command } from 'commander';
import { analytesOfGroup, GROUPS, type Group } from '../../server/domain/catalog.js';
import {
  addConformity,
  CONFORMITY_COLUMNS,
  conformityCsv,
  conformityOf,
  conformityTotal,
  NO_JUDGMENTS,
  type ConformityCounts,
  type NonConformityReport,
} from '../../server/domain/conformityReport.js';
import {
  countsOf,
  monthsOfYear,
  monthTotal,
  REPORT_TITLES,
  REPORT_YEAR_MAX,
  REPORT_YEAR_MIN,
  reportCsv,
  type GroupReport,
  type PosNeg,
} from '../../server/domain/reportShape.js';
import { monthlyReport, nonConformityCounts } from '../../server/services/reports.js';
import { io } from '../io.js';
import { out, UsageError, withRuntime } from '../runtime.js';
import { terminalSafe } from '../safeText.js';
import { formatCount, type Column, type Row } from '../table.js';
import { printTable } from '../terminal.js';

/** --discipline values: the result groups as a person types them. */
const DISCIPLINE_OPTIONS: Record<string, Group> = {
  microbio: 'microbio',
  'chem-microbial': 'chemMicrobial',
  'chem-elisa': 'chemElisa',
  molbio: 'molBio',
};

const FORMATS = ['table', 'csv', 'json'] as const;
type Format = (typeof FORMATS)[number];

interface MonthlyOptions {
  year?: string;
  discipline?: string;
  format?: string;
  json?: boolean;
  conformity?: boolean;
}

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const cell = (c: PosNeg) => `${formatCount(c.positive)}/${formatCount(c.negative)}`;
const add = (a: PosNeg, b: PosNeg): PosNeg => ({ positive: a.positive + b.positive, negative: a.negative + b.negative });
const ZERO: PosNeg = { positive: 0, negative: 0 };

/**
 * A report as a terminal table: one row per test and a total row, one column per month and a year
 * total, each cell "positive/negative". (Tests as rows keep it narrow enough for a terminal.)
 */
function reportTable(group: Group, year: number, report: GroupReport): { columns: Column[]; rows: Row[] } {
  const months = monthsOfYear(year);
  const columns: Column[] = [{ header: 'Test' }, ...MONTH_NAMES.map((m) => ({ header: m, align: 'right' as const })), { header: 'Total', align: 'right' }];
  const rows: Row[] = analytesOfGroup(group).map((a) => {
    const cells = months.map((m) => countsOf(report, a, m));
    return [a.label, ...cells.map(cell), cell(cells.reduce(add, ZERO))];
  });
  const totals = months.map((m) => monthTotal(report, group, m));
  rows.push(['Total', ...totals.map(cell), cell(totals.reduce(add, ZERO))]);
  return { columns, rows };
}

const conformityCell = (c: ConformityCounts) => CONFORMITY_COLUMNS.map((col) => formatCount(c[col.key])).join('/');

/**
 * The statements of conformity of `group` as a terminal table, laid out as reportTable: a row per
 * test and a Total row, a column per month and the year's total, each cell
 * "does not conform/inconclusive/conforms".
 */
function conformityTable(group: Group, report: NonConformityReport): { columns: Column[]; rows: Row[] } {
  const months = monthsOfYear(report.year);
  const columns: Column[] = [{ header: 'Test' }, ...MONTH_NAMES.map((m) => ({ header: m, align: 'right' as const })), { header: 'Total', align: 'right' }];
  const rows: Row[] = analytesOfGroup(group).map((a) => {
    const cells = months.map((m) => conformityOf(report, a, m));
    return [a.label, ...cells.map(conformityCell), conformityCell(cells.reduce(addConformity, NO_JUDGMENTS))];
  });
  rows.push(['Total', ...months.map((m) => conformityCell(conformityTotal(report, group, m))), conformityCell(conformityTotal(report, group))]);
  return { columns, rows };
}

/**
 * --conformity: the statements of conformity instead of the positives and negatives, read by the
 * service of GET api/reports/nonconformities. JSON is that call's body (with --discipline, only that
 * discipline's rows); CSV and the table are laid out as the positive/negative ones.
 */
async function printConformity(report: NonConformityReport, groups: readonly Group[], format: Format): Promise<void> {
  if (format === 'csv') return void io().stdout.write(terminalSafe(conformityCsv(groups[0], report)));
  if (format === 'json') return out(JSON.stringify(report));
  for (const [i, group] of groups.entries()) {
    if (i > 0) out('');
    await printTable({ title: `${REPORT_TITLES[group]} ${report.year} statements of conformity (does not conform/inconclusive/conforms)`, ...conformityTable(group, report) });
  }
}

function parseOptions(opts: MonthlyOptions, currentYear: number): { year: number; groups: Group[]; format: Format } {
  const year = opts.year === undefined ? currentYear : Number(opts.year);
  if (!Number.isInteger(year) || year < REPORT_YEAR_MIN || year > REPORT_YEAR_MAX) {
    throw new UsageError(`--year must be a year from ${REPORT_YEAR_MIN} to ${REPORT_YEAR_MAX} (got "${opts.year}").`);
  }
  let groups: Group[] = [...GROUPS];
  if (opts.discipline !== undefined) {
    const group = DISCIPLINE_OPTIONS[opts.discipline.toLowerCase()];
    if (!group) throw new UsageError(`Unknown --discipline "${opts.discipline}": use one of ${Object.keys(DISCIPLINE_OPTIONS).join(', ')}.`);
    groups = [group];
  }
  const format = (opts.format ?? 'table').toLowerCase() as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`Unknown --format "${opts.format}": use one of ${FORMATS.join(', ')}.`);
  // --json is the flag every command takes; --format json stays as its alias.
  if (opts.json && format !== 'table' && format !== 'json') throw new UsageError(`--json and --format ${format} ask for two different outputs: pass one.`);
  if (opts.json) return { year, groups, format: 'json' };
  if (format === 'csv' && groups.length > 1) throw new UsageError('A CSV file holds one table: choose it with --discipline (microbio, chem-microbial, chem-elisa or molbio).');
  return { year, groups, format };
}

async function monthlyCommand(opts: MonthlyOptions): Promise<void> {
  await withRuntime(async (rt) => {
    const { year, groups, format } = parseOptions(opts, rt.clock.now().getUTCFullYear());
    // Only the analytes of `groups`: with --discipline, that discipline's rows.
    if (opts.conformity) return printConformity(await nonConformityCounts(rt.db, groups, year), groups, format);
    const reports = new Map<Group, GroupReport>();
    for (const group of groups) reports.set(group, await monthlyReport(rt.db, group, year));

    if (format === 'csv') return void io().stdout.write(terminalSafe(reportCsv(groups[0], reports.get(groups[0])!)));
    if (format === 'json') {
      // One discipline: the API's body; all of them: keyed by --discipline value.
      const byOption = Object.entries(DISCIPLINE_OPTIONS).filter(([, g]) => reports.has(g)).map(([name, g]) => [name, reports.get(g)]);
      return out(JSON.stringify(groups.length === 1 ? reports.get(groups[0]) : Object.fromEntries(byOption)));
    }
    for (const [i, group] of groups.entries()) {
      if (i > 0) out('');
      await printTable({ title: `${REPORT_TITLES[group]} ${year} (positive/negative)`, ...reportTable(group, year, reports.get(group)!) });
    }
  });
}

export function registerReport(command: Command): void {
  const report = command
    .addHelpText('after', '\nExample:\n  $ labctl report monthly --year 2025 --discipline microbio --format csv > microbio-2025.csv');

  report
    .command('monthly')
    .description('positive and negative counts per test and month of one year')
    .option('-y, --year <year>', 'the year (default: the current year)')
    .option('-d, --discipline <discipline>', `one table only: ${Object.keys(DISCIPLINE_OPTIONS).join(', ')} (default: all four)`)
    .option('-f, --format <format>', 'table (Ink on a terminal, plain text otherwise), csv (one --discipline) or json (the same as --json)', 'table')
    .option('--json', 'print the report as JSON: the API\'s body for one --discipline, keyed by discipline otherwise')
    .option('--conformity', 'the statements of conformity instead: results judged does not conform, inconclusive and conforming per test and month (JSON: the body of GET api/reports/nonconformities)')
    .addHelpText(
      'after',
      '\nA result counts in the month of its analysis date (or of its saving when it has none); results of\nrejected requests do not count.\n' +
        '\nExamples:\n  $ labctl report monthly\n  $ labctl report monthly --year 2025 --discipline chem-elisa\n' +
        '  $ labctl report monthly --discipline molbio --format csv > molbio.csv\n  $ labctl report monthly --json | jq .microbio\n' +
        '  $ labctl report monthly --conformity --discipline chem-elisa',
    )
    .action(monthlyCommand);
}
