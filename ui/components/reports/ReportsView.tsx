import { useId, useState } from 'react';
import type { Group } from '../../../server/domain/catalog.js';
import { monthTotal, reportCsv, reportMonths, REPORT_PATHS, REPORT_TITLES } from '../../../server/domain/reportShape.js';
import '../../styles/reports.css';
import { LoadStatus } from '../LoadStatus.js';
import { downloadText } from './downloadText.js';
import { MonthlyChart } from './MonthlyChart.js';
import { ReportTable } from './ReportTable.js';
import { useReports } from './useReports.js';
import { YearPicker } from './YearPicker.js';

export interface ReportsViewProps {
  /** The report groups to show, one table each, in this order. */
  groups: readonly Group[];
}

/**
 * The database screens' content: a year picker (default the current year), 'Loading...' until every
 * report has arrived, then per group its chart, its table and a CSV download of the table.
 * The desk shows all four groups; each testing portal shows its own.
 */
export function ReportsView({ groups }: ReportsViewProps) {
  const id = useId();
  const [year, setYear] = useState(() => new Date().getFullYear());
  const state = useReports(year, groups);

  return (
    <div className="reports">
      <YearPicker year={year} onChange={setYear} />
      <LoadStatus state={state} />
      {state.status === 'ready' &&
        groups.map((group) => {
          const report = state.data[group];
          if (!report) return null;
          const title = REPORT_TITLES[group];
          return (
            <section key={group} className="report-section" aria-labelledby={`${id}-${group}`}>
              <div className="report-heading">
                <h2 id={`${id}-${group}`}>{title}</h2>
                <button
                  type="button"
                  className="button button-secondary button-small"
                  onClick={() => downloadText(`${REPORT_PATHS[group]}-${year}.csv`, reportCsv(group, report))}
                >
                  Download {title} CSV
                </button>
              </div>
              <MonthlyChart
                title={`${title}: positive and negative results per month, ${year}`}
                data={reportMonths(report).map((month) => ({ month, ...monthTotal(report, group, month) }))}
              />
              <ReportTable group={group} report={report} title={`${title}, ${year}`} />
            </section>
          );
        })}
    </div>
  );
}
