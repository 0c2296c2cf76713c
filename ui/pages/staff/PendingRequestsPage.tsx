import { useCallback } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { FAMILY_LABELS } from '../../../server/domain/catalog.js';
import { familiesOf } from '../../../server/domain/requestShape.js';
import { listPendingRequests } from '../../api/desk.js';
import { LoadStatus } from '../../components/LoadStatus.js';
import { Page } from '../../components/Page.js';
import { formatTimestampDay } from '../../components/requests/format.js';
import { useLoad } from '../../hooks/useLoad.js';
import '../../styles/staff.css';

/** /pending-requests/{userId}: requests waiting for review, oldest first; a row opens its details. */
export function PendingRequestsPage() {
  const { userId = '' } = useParams();
  const navigate = useNavigate();
  const state = useLoad(useCallback((signal: AbortSignal) => listPendingRequests(signal), []));
  const details = (requestId: number) => `/request-details/${userId}/${requestId}`;

  return (
    <Page title="Pending Requests" note="Requests waiting for review, oldest first." width="wide">
      <LoadStatus state={state} />
      {state.status === 'ready' && state.data.length === 0 && <p className="empty">There are no pending requests as of the moment.</p>}
      {state.status === 'ready' && state.data.length > 0 && (
        <div className="table-wrap">
          <table className="desk-table">
            <thead>
              <tr>
                <th scope="col">Client Classification</th>
                <th scope="col">Tests Selected</th>
                <th scope="col">Submission Date</th>
              </tr>
            </thead>
            <tbody>
              {state.data.map((r) => {
                const submitted = formatTimestampDay(r.submissionDate);
                return (
                  // The whole row opens the request for the mouse; its link does for the keyboard.
                  <tr key={r.requestId} className="clickable-row" onClick={() => navigate(details(r.requestId))}>
                    <td className="break-anywhere">
                      <Link to={details(r.requestId)} onClick={(e) => e.stopPropagation()}>
                        {r.clientClassification}
                        <span className="visually-hidden">, submitted {submitted}</span>
                      </Link>
                    </td>
                    <td>{familiesOf(r.tests).map((f) => FAMILY_LABELS[f]).join(', ')}</td>
                    <td>{submitted}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  );
}
