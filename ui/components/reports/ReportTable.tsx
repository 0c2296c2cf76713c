import { Fragment, useId, type ReactNode } from 'react';
import { analytesOfGroup, type Analyte, type Group } from '../../../server/domain/catalog.js';
import { countsOf, monthTotal, reportMonths, REPORT_TITLES, type GroupReport, type PosNeg } from '../../../server/domain/reportShape.js';

export interface ReportTableProps {
  group: Group;
  report: GroupReport;
  /** Caption; default the group's report title ('Microbiology', 'Chemical ELISA', ...). */
  title?: string;
}

/** A count cell: a positive count is a warning (amber, an icon), a zero is muted. */
function Count({ n, positive = false }: { n: number; positive?: boolean }) {
  const kind = n === 0 ? 'report-zero' : positive ? 'report-positive' : '';
  return <span className={kind || undefined}>{n}</span>;
}

/** One count column under each test: the key of its count and its header. */
export interface CountColumn<K extends string> {
  key: K;
  label: string;
}

export interface MonthlyCountTableProps<K extends string> {
  group: Group;
  caption: ReactNode;
  /** Extra class of the scrolling box. */
  className?: string;
  months: readonly string[];
  columns: readonly CountColumn<K>[];
  totalLabel: string;
  /** The counts of one test in one month, and of every test of the group in one month. */
  counts(analyte: Analyte, month: string): Record<K, number>;
  total(month: string): Record<K, number>;
  /** How one count reads (its warning language). */
  cell(key: K, n: number): ReactNode;
}

/**
 * A table of monthly counts per test: a Month column, the `columns` under each test of the group, and
 * the month's Total as the columns' counts joined by ' / '. Scrolls sideways inside its own
 * (focusable) box; Month and Total stay in view while it does (sticky first and last columns).
 */
export function MonthlyCountTable<K extends string>({ group, caption, className, months, columns, totalLabel, counts, total, cell }: MonthlyCountTableProps<K>) {
  const id = useId();
  const analytes = analytesOfGroup(group);
  return (
    <div className={`table-wrap report-table${className ? ` ${className}` : ''}`} role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
      <table>
        <caption id={`${id}-caption`}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col" rowSpan={2} className="report-month">
              Month
            </th>
            {analytes.map((a) => (
              <th key={a.code} scope="colgroup" colSpan={columns.length} className="report-test">
                {a.label}
              </th>
            ))}
            <th scope="col" rowSpan={2} className="report-total">
              {totalLabel}
            </th>
          </tr>
          <tr>
            {analytes.map((a) =>
              columns.map((c) => (
                <th key={`${a.code}-${c.key}`} scope="col" className="report-sub">
                  {c.label}
                </th>
              )),
            )}
          </tr>
        </thead>
        <tbody>
          {months.map((month) => {
            const sum = total(month);
            return (
              <tr key={month}>
                <th scope="row" className="report-month">
                  {month}
                </th>
                {analytes.map((a) => {
                  const c = counts(a, month);
                  return columns.map(({ key }) => (
                    <td key={`${a.code}-${key}`} className="number">
                      {cell(key, c[key])}
                    </td>
                  ));
                })}
                <td className="number report-total">
                  {columns.map(({ key }, i) => (
                    <Fragment key={key}>
                      {i > 0 && ' / '}
                      {cell(key, sum[key])}
                    </Fragment>
                  ))}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

const POS_NEG: readonly CountColumn<keyof PosNeg>[] = [
  { key: 'positive', label: 'Positive' },
  { key: 'negative', label: 'Negative' },
];

/**
 * One report table: a Positive and a Negative column under each test, and the month's Total as
 * 'positive / negative'. Positives stand out, zeros recede.
 */
export function ReportTable({ group, report, title = REPORT_TITLES[group] }: ReportTableProps) {
  return (
    <MonthlyCountTable
      group={group}
      caption={title}
      months={reportMonths(report)}
      columns={POS_NEG}
      totalLabel="Total"
      counts={(a, month) => countsOf(report, a, month)}
      total={(month) => monthTotal(report, group, month)}
      cell={(key, n) => <Count n={n} positive={key === 'positive'} />}
    />
  );
}
