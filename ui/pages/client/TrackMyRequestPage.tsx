import { useCallback } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { ClientRequestRow } from '../../../server/domain/requestShape.js';
import { STATUS_DISPLAY } from '../../../server/domain/requestStatus.js';
import { listClientRequests } from '../../api/requests.js';
import { DragScrollList } from '../../components/DragScrollList.js';
import { Page } from '../../components/Page.js';
import { formatTimestampDay } from '../../components/requests/format.js';
import { logFailure, useLoad } from '../../hooks/useLoad.js';
import '../../styles/client.css';

/** A RELEASED request opens its results, any other its review (SPEC section 2). */
function targetOf(userId: string, r: ClientRequestRow): string {
  return r.requestStatus === 'RELEASED' ? `/request-results/${userId}/${r.requestId}` : `/request-review/${userId}/${r.requestId}`;
}

/** /track-my-request/{userId}: the client's requests, newest first; a row opens its results or review. */
export function TrackMyRequestPage() {
  const { userId = '' } = useParams();
  const navigate = useNavigate();
  const state = useLoad(
    useCallback(
      (signal: AbortSignal) => logFailure('Could not load the requests', signal, listClientRequests(userId, signal)),
      [userId],
    ),
  );
  const requests = state.status === 'ready' ? state.data : [];

  return (
    <Page title="Track My Request" note="Drag the sides of the container to scroll!" width="wide">
      <DragScrollList className="track-list" state={state} rows={requests.length} empty="You have no ongoing requests and results.">
        <table>
          <thead>
            <tr>
              <th scope="col">Control Number</th>
              <th scope="col">Submission Date</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {requests.map((r) => (
              <tr
                key={r.requestId}
                className={`track-row status-${r.requestStatus.toLowerCase()}`}
                // The whole row opens the request for a mouse; the link in it serves the keyboard.
                onClick={(e) => {
                  if (!(e.target instanceof Element && e.target.closest('a'))) navigate(targetOf(userId, r));
                }}
              >
                <td>
                  <Link to={targetOf(userId, r)}>
                    {r.controlNumber ?? 'Not yet assigned'}
                    <span className="visually-hidden">
                      {' '}
                      ({r.requestStatus === 'RELEASED' ? 'results' : 'review'} of the request of {formatTimestampDay(r.submissionDate)})
                    </span>
                  </Link>
                </td>
                <td>{formatTimestampDay(r.submissionDate)}</td>
                <td>
                  <span className="status">{STATUS_DISPLAY[r.requestStatus] ?? r.requestStatus}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </DragScrollList>
    </Page>
  );
}
