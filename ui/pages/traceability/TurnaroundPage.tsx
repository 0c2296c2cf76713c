import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { FAMILY_LABELS } from '../../../server/domain/catalog.js';
import { STATUS_DISPLAY } from '../../../server/domain/requestStatus.js';
import { DISCIPLINES } from '../../../server/domain/roles.js';
import { getTurnaround, getTurnaroundWeeks, turnaroundPath, turnaroundWeeksPath, type TurnaroundPage as FirstPage } from '../../api/traceability.js';
import { LoadStatus } from '../../components/LoadStatus.js';
import { Page } from '../../components/Page.js';
import { CsvExportLink } from '../../components/queue/CsvExportLink.js';
import { WeeklyTurnaroundChart } from '../../components/traceability/WeeklyTurnaroundChart.js';
import { DISCIPLINE_INFO } from '../../disciplines.js';
import { useListParams } from '../../hooks/useListParams.js';
import { failureText, useLoad } from '../../hooks/useLoad.js';
import '../../styles/reports.css';
import '../../styles/traceability.css';
import { ScrollingTable } from '../../components/ScrollingTable.js';

/** The view in the address: a discipline, days of submission, and which open requests are listed. */
const VIEW_DEFAULTS = { discipline: '', since: '', until: '', show: 'late' };

/**
 * /turnaround/{userId}: open requests per discipline; per discipline and week of submission, how
 * turnaround went (a chart, and its figures as a table); and the late requests (or every open one),
 * most days late first, each linked to its details. The filters (discipline, days of submission, late
 * or all open) live in the address and apply to the chart, the list and its CSV.
 */
export function TurnaroundPage() {
  const { userId = '' } = useParams();
  const id = useId();
  const [view, change] = useListParams(VIEW_DEFAULTS);
  const late = view.show !== 'open';
  const filter = { discipline: view.discipline || null, since: view.since || null, until: view.until || null };
  const params = { ...filter, late: late ? 'true' : null };
  const path = turnaroundPath(params);
  const chartPath = turnaroundWeeksPath(filter);
  const state = useLoad(useCallback((signal: AbortSignal) => getTurnaround(path, signal), [path]));
  const chart = useLoad(useCallback((signal: AbortSignal) => getTurnaroundWeeks(chartPath, signal), [chartPath]));
  const listName = late ? 'Late requests' : 'Open requests';
  return (
    <Page title="Turnaround" note="Open requests by age and due date, late ones first, and how turnaround went week by week." width="wide">
      <form className="form filters" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor={`${id}-discipline`}>Discipline</label>
          <select id={`${id}-discipline`} value={view.discipline} onChange={(e) => change({ discipline: e.target.value })}>
            <option value="">All disciplines</option>
            {DISCIPLINES.map((d) => (
              <option key={d} value={d}>
                {DISCIPLINE_INFO[d].name}
              </option>
            ))}
          </select>
        </div>
        {(['since', 'until'] as const).map((end) => (
          <div className="field" key={end}>
            <label htmlFor={`${id}-${end}`}>{end === 'since' ? 'Submitted from' : 'Submitted to'}</label>
            <input
              id={`${id}-${end}`}
              type="date"
              value={view[end]}
              min={end === 'until' ? view.since || undefined : undefined}
              max={end === 'since' ? view.until || undefined : undefined}
              onChange={(e) => change({ [end]: e.target.value })}
            />
          </div>
        ))}
        <div className="field">
          <label htmlFor={`${id}-show`}>List</label>
          <select id={`${id}-show`} value={late ? 'late' : 'open'} onChange={(e) => change({ show: e.target.value })}>
            <option value="late">Late requests</option>
            <option value="open">All open requests</option>
          </select>
        </div>
      </form>
      <LoadStatus state={state} />
      {state.status === 'ready' && (
        <>
          <ScrollingTable label="Per discipline">
            <table aria-label="Per discipline">
              <caption className="visually-hidden">Open requests now, per discipline</caption>
              <thead>
                <tr>
                  <th>Discipline</th>
                  <th>Open</th>
                  <th>Late</th>
                  <th>Oldest submission</th>
                </tr>
              </thead>
              <tbody>
                {state.data.turnaround.disciplines.map((d) => (
                  <tr key={d.family}>
                    <td>{d.label}</td>
                    <td>{d.open}</td>
                    <td className={d.late > 0 ? 'late' : undefined}>{d.late}</td>
                    <td>{d.oldestSubmission?.slice(0, 10) ?? '-'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollingTable>
          <h2>Per week of submission{chart.status === 'ready' && `, ${chart.data.window.since} to ${chart.data.window.until}`}</h2>
          <LoadStatus state={chart} />
          {chart.status === 'ready' && (
            <div className="turnaround-charts">
              {chart.data.weeks.map((d) => (
                <WeeklyTurnaroundChart key={d.family} discipline={d} />
              ))}
            </div>
          )}
          <h2>{listName}</h2>
          <p>
            <CsvExportLink path="/requests/turnaround" params={params} what={listName.toLowerCase()} />
          </p>
          {state.data.turnaround.requests.length === 0 ? (
            <p className="empty">{late ? 'No request is late.' : 'There are no open requests.'}</p>
          ) : (
            <OpenRequests key={path} firstPage={state.data} userId={userId} name={listName} />
          )}
        </>
      )}
    </Page>
  );
}

/** The open requests: the first page, and the next ones on 'Show more'. */
function OpenRequests({ firstPage, userId, name }: { firstPage: FirstPage; userId: string; name: string }) {
  const [shown, setShown] = useState({ rows: firstPage.turnaround.requests, total: firstPage.total, next: firstPage.next });
  const [focusId, setFocusId] = useState<number>();
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // Keyboard users continue from the first row 'Show more' added.
  const firstAdded = useRef<HTMLAnchorElement>(null);
  useEffect(() => firstAdded.current?.focus(), [focusId]);

  async function showMore() {
    if (loading || !shown.next) return;
    setLoading(true);
    setFailure(null);
    try {
      const page = await getTurnaround(shown.next);
      // A request whose due date changed meanwhile can come again: it is shown once.
      const known = new Set(shown.rows.map((r) => r.requestId));
      const added = page.turnaround.requests.filter((r) => !known.has(r.requestId));
      setShown({ rows: [...shown.rows, ...added], total: page.total, next: page.next });
      setFocusId(added[0]?.requestId);
    } catch (error) {
      setFailure(`The next page could not be loaded: ${failureText(error)}`);
    } finally {
      setLoading(false);
    }
  }

  return (
    <>
      <ScrollingTable label={name}>
        <table aria-label={name}>
          <thead>
            <tr>
              <th>Request</th>
              <th>Status</th>
              <th>Disciplines</th>
              <th>Submitted</th>
              <th>Age (days)</th>
              <th>Due</th>
              <th>Late</th>
            </tr>
          </thead>
          <tbody>
            {shown.rows.map((r) => (
              <tr key={r.requestId}>
                <td>
                  <Link to={`/request-details/${userId}/${r.requestId}`} ref={r.requestId === focusId ? firstAdded : undefined}>
                    {r.controlNumber ?? `Request ${r.requestId}`}
                  </Link>
                  <div className="muted">{r.companyName}</div>
                </td>
                <td>{STATUS_DISPLAY[r.status]}</td>
                <td>{r.families.map((f) => FAMILY_LABELS[f]).join(', ')}</td>
                <td>{r.submissionDate.slice(0, 10)}</td>
                <td>{r.ageDays}</td>
                <td>{r.dueDate ?? '-'}</td>
                <td className={r.daysLate > 0 ? 'late' : undefined}>{r.daysLate > 0 ? `⚠ ${r.daysLate} days late` : 'on time'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollingTable>
      <p className="muted" role="status">
        Showing {shown.rows.length.toLocaleString('en-US')} of {shown.total.toLocaleString('en-US')} {name.toLowerCase()}
      </p>
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      {shown.next && (
        <p className="pager">
          <button type="button" className="button button-secondary" aria-disabled={loading} onClick={() => void showMore()}>
            {loading ? 'Loading...' : 'Show more'}
          </button>
        </p>
      )}
    </>
  );
}
