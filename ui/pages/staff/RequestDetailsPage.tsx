import { useCallback, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { approveRequest, getPendingRequest, rejectRequest } from '../../api/desk.js';
import { LoadStatus } from '../../components/LoadStatus.js';
import { Page } from '../../components/Page.js';
import { BackArrow } from '../../components/requests/BackArrow.js';
import { RequestMessages } from '../../components/requests/RequestMessages.js';
import { RequestSummary } from '../../components/requests/RequestSummary.js';
import { useLoad } from '../../hooks/useLoad.js';
import '../../styles/client.css';
import '../../styles/staff.css';

/** /request-details/{userId}/{requestId}: the whole request, read-only, to approve or reject. */
export function RequestDetailsPage() {
  const { userId = '', requestId = '' } = useParams();
  const navigate = useNavigate();
  const state = useLoad(useCallback((signal: AbortSignal) => getPendingRequest(requestId, signal), [requestId]));
  const [busy, setBusy] = useState(false);

  async function approve() {
    setBusy(true);
    try {
      await approveRequest(requestId, userId);
      navigate(`/request-control-number/${userId}/${requestId}`);
    } catch (error) {
      console.error('Approving request failed:', error);
      window.alert('Error processing request. Please check console for details.');
      setBusy(false);
    }
  }

  async function reject() {
    setBusy(true);
    try {
      await rejectRequest(requestId);
      window.alert('Request rejected successfully!');
      navigate(`/home/staff/${userId}`);
    } catch (error) {
      console.error('Rejecting request failed:', error);
      window.alert('Error rejecting request. Please try again.');
      setBusy(false);
    }
  }

  const pending = state.status === 'ready' && state.data.requestStatus === 'PENDING_REVIEW';
  return (
    <Page title="Request Details" width="wide">
      <BackArrow to={`/pending-requests/${userId}`} label="Pending Requests" />
      <p className="muted">Press the back arrow to go the pending requests page!</p>
      <LoadStatus state={state} />
      {state.status === 'ready' && (
        <>
          <RequestSummary request={state.data} samples={state.data.samples} />
          <RequestMessages requestId={state.data.requestId} requestStatus={state.data.requestStatus} />
          {pending && (
            <div className="actions">
              <button type="button" className="button button-primary" disabled={busy} onClick={() => void approve()}>
                Approve
              </button>
              <button type="button" className="button button-negative" disabled={busy} onClick={() => void reject()}>
                Reject
              </button>
              <Link className="button button-secondary" to={`/request-additional-info/${userId}/${requestId}`}>
                Request Additional Information
              </Link>
            </div>
          )}
        </>
      )}
    </Page>
  );
}
