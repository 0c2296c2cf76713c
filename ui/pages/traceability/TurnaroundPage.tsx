import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { FAMILY_LABELS } from '../../../server/domain/catalog.js';
import { STATUS_DISPLAY } from '../../../server/domain/requestStatus.js';
import { getTurnaround, type TurnaroundPage as FirstPage } from '../../api/traceability.js';
import { LoadStatus } from '../../components/LoadStatus.js';
import { Page } from '../../components/Page.js';
import { CsvExportLink } from '../../components/queue/CsvExportLink.js';
import { failureText, useLoad } from '../../hooks/useLoad.js';
import '../../styles/traceability.css';
import { ScrollingTable } from '../../components/ScrollingTable.js';

/** /turnaround/{userId}: open requests per discipline, and each by age and due date, late ones first. */
export function TurnaroundPage() {
  const { userId = '' } = useParams();
  const state = useLoad(useCallback((signal: AbortSignal) => getTurnaround(undefined, signal), []));
  return (
    <Page title="Turnaround" note="Open requests by age and due date, late ones first." width="wide">
      <LoadStatus state={state} />
      {state.status === 'ready' && (
        <>
          <ScrollingTable label="Per discipline">
            <table aria-label="Per discipline">
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
          <h2>Open requests</h2>
          <p>
            <CsvExportLink path="/requests/turnaround" params={{}} what="open requests" />
          </p>
          {state.data.turnaround.requests.length === 0 ? (
            <p className="empty">There are no open requests.</p>
          ) : (
            <OpenRequests firstPage={state.data} userId={userId} />
          )}
        </>
      )}
    </Page>
  );
}

/** The open requests: the first page, and the next ones on 'Show more'. */
function OpenRequests({ firstPage, userId }: { firstPage: FirstPage; userId: string }) {
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
      <ScrollingTable label="Open requests">
        <table aria-label="Open requests">
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
        Showing {shown.rows.length.toLocaleString('en-US')} of {shown.total.toLocaleString('en-US')} open requests
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
