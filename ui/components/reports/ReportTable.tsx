import { useId } from 'react';
import { analytesOfGroup, type Group } from '../../../server/domain/catalog.js';
import { countsOf, monthTotal, reportMonths, REPORT_TITLES, type GroupReport } from '../../../server/domain/reportShape.js';

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

/**
 * One report table: a Month column, a Positive and a Negative column under each test, and the
 * month's Total as 'positive / negative'. Scrolls sideways inside its own (focusable) box; Month and
 * Total stay in view while it does (sticky first and last columns). Positives stand out, zeros recede.
 */
export function ReportTable({ group, report, title = REPORT_TITLES[group] }: ReportTableProps) {
  const id = useId();
  const analytes = analytesOfGroup(group);
  return (
    <div className="table-wrap report-table" role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
      <table>
        <caption id={`${id}-caption`}>{title}</caption>
        <thead>
          <tr>
            <th scope="col" rowSpan={2} className="report-month">
              Month
            </th>
            {analytes.map((a) => (
              <th key={a.code} scope="colgroup" colSpan={2} className="report-test">
                {a.label}
              </th>
            ))}
            <th scope="col" rowSpan={2} className="report-total">
              Total
            </th>
          </tr>
          <tr>
            {analytes.map((a) => [
              <th key={`${a.code}-p`} scope="col" className="report-sub">
                Positive
              </th>,
              <th key={`${a.code}-n`} scope="col" className="report-sub">
                Negative
              </th>,
            ])}
          </tr>
        </thead>
        <tbody>
          {reportMonths(report).map((month) => {
            const total = monthTotal(report, group, month);
            return (
              <tr key={month}>
                <th scope="row" className="report-month">
                  {month}
                </th>
                {analytes.map((a) => {
                  const c = countsOf(report, a, month);
                  return [
                    <td key={`${a.code}-p`} className="number">
                      <Count n={c.positive} positive />
                    </td>,
                    <td key={`${a.code}-n`} className="number">
                      <Count n={c.negative} />
                    </td>,
                  ];
                })}
                <td className="number report-total">
                  <Count n={total.positive} positive /> / <Count n={total.negative} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
