import { useId, useState } from 'react';
import type { Group } from '../../../server/domain/catalog.js';
import { monthTotal, reportCsv, reportMonths, REPORT_PATHS, REPORT_TITLES } from '../../../server/domain/reportShape.js';
import { getReportYears } from '../../api/reports.js';
import { useLoad } from '../../hooks/useLoad.js';
import '../../styles/reports.css';
import { LoadStatus } from '../LoadStatus.js';
import { ConformitySection, useConformity } from './ConformityReport.js';
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
 * The database screens' content: a year picker offering the years that have data (the current year
 * first when it has some), 'Loading...' until every report has arrived, then per group its chart,
 * its table and a CSV download of the table; below them the year's statements of conformity
 * (issue 26). The desk shows all four groups; each testing portal shows its own.
 */
export function ReportsView({ groups }: ReportsViewProps) {
  const years = useLoad(getReportYears);
  if (years.status !== 'ready') return <LoadStatus state={years} />;
  // Nothing counted yet: the current year, all zeros.
  const offered = years.data.length > 0 ? years.data : [new Date().getFullYear()];
  return <YearReports groups={groups} years={offered} />;
}

function YearReports({ groups, years }: ReportsViewProps & { years: readonly number[] }) {
  const id = useId();
  const [year, setYear] = useState(() => {
    const current = new Date().getFullYear();
    return years.includes(current) ? current : years[0];
  });
  const state = useReports(year, groups);
  // Fetched beside the reports, shown below them once they are in (nothing moves down meanwhile).
  const conformity = useConformity(year);

  return (
    <div className="reports">
      <YearPicker year={year} years={years} onChange={setYear} />
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
      {state.status === 'ready' && <ConformitySection year={year} groups={groups} conformity={conformity} />}
    </div>
  );
}
