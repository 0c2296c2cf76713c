import { useCallback } from 'react';
import { Link, useParams } from 'react-router-dom';
import { FAMILY_LABELS } from '../../../server/domain/catalog.js';
import { STATUS_DISPLAY } from '../../../server/domain/requestStatus.js';
import { getTurnaround } from '../../api/traceability.js';
import { LoadStatus } from '../../components/LoadStatus.js';
import { Page } from '../../components/Page.js';
import { useLoad } from '../../hooks/useLoad.js';
import '../../styles/traceability.css';
import { ScrollingTable } from '../../components/ScrollingTable.js';

/** /turnaround/{userId}: open requests per discipline, and each by age and due date, late ones first. */
export function TurnaroundPage() {
  const { userId = '' } = useParams();
  const state = useLoad(useCallback((signal: AbortSignal) => getTurnaround(signal), []));
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
                {state.data.disciplines.map((d) => (
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
          {state.data.requests.length === 0 ? (
            <p className="empty">There are no open requests.</p>
          ) : (
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
                  {state.data.requests.map((r) => (
                    <tr key={r.requestId}>
                      <td>
                        <Link to={`/request-details/${userId}/${r.requestId}`}>{r.controlNumber ?? `Request ${r.requestId}`}</Link>
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
          )}
        </>
      )}
    </Page>
  );
}
