import { useCallback, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { approveRequest, getPendingRequest, rejectRequest } from '../../api/desk.js';
import { RejectDialog } from '../../components/desk/RejectDialog.js';
import { LoadStatus } from '../../components/LoadStatus.js';
import { Page } from '../../components/Page.js';
import { BackArrow } from '../../components/requests/BackArrow.js';
import { RequestMessages } from '../../components/requests/RequestMessages.js';
import { RequestResults } from '../../components/requests/RequestResults.js';
import { RequestSummary } from '../../components/requests/RequestSummary.js';
import { ReceptionPanel } from '../../components/traceability/ReceptionPanel.js';
import { labelsUrl } from '../../api/traceability.js';
import { acceptsResults } from '../../../server/domain/requestStatus.js';
import { useLoad } from '../../hooks/useLoad.js';
import { useNotify } from '../../components/Notice.js';
import { formatTimestampDay } from '../../components/requests/format.js';
import '../../styles/client.css';
import '../../styles/staff.css';

/** /request-details/{userId}/{requestId}: the whole request, read-only, to approve or reject. */
export function RequestDetailsPage() {
  const { userId = '', requestId = '' } = useParams();
  const navigate = useNavigate();
  const state = useLoad(useCallback((signal: AbortSignal) => getPendingRequest(requestId, signal), [requestId]));
  const [busy, setBusy] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const notify = useNotify();

  async function approve() {
    setBusy(true);
    try {
      await approveRequest(requestId, userId);
      navigate(`/request-control-number/${userId}/${requestId}`);
    } catch (error) {
      console.error('Approving request failed:', error);
      notify('Error processing request. Please check console for details.', 'error');
      setBusy(false);
    }
  }

  // The dialog shows a failure itself (SPEC section 8's text); success is SPEC's message, on the home page.
  async function reject(reason: string) {
    await rejectRequest(requestId, reason);
    notify('Request rejected successfully!', 'success', { carry: true });
    navigate(`/home/staff/${userId}`);
  }

  const pending = state.status === 'ready' && state.data.requestStatus === 'PENDING_REVIEW';
  return (
    <Page title="Request Details" width="wide">
      <BackArrow to={`/pending-requests/${userId}`} label="Pending Requests" />
      <p className="muted">Press the back arrow to go the pending requests page!</p>
      <LoadStatus state={state} />
      {state.status === 'ready' && (
        <>
          {/* The decision first, so a long request need not be scrolled through to act on it. */}
          {pending && (
            <div className="actions decision-actions">
              <button type="button" className="button button-primary" disabled={busy} onClick={() => void approve()}>
                Approve
              </button>
              <button type="button" className="button button-negative" disabled={busy} onClick={() => setRejecting(true)}>
                Reject
              </button>
              <Link className="button button-secondary" to={`/request-additional-info/${userId}/${requestId}`}>
                Request Additional Information
              </Link>
            </div>
          )}
          <RequestSummary request={state.data} samples={state.data.samples} />
          <RequestMessages requestId={state.data.requestId} requestStatus={state.data.requestStatus} />
          {acceptsResults(state.data.requestStatus) && <ReceptionPanel requestId={state.data.requestId} />}
          {/* Approved requests have analyses: their results and conformity as far as entered. */}
          {state.data.controlNumber && (
            <section className="request-results" aria-labelledby="request-results-title">
              <h2 id="request-results-title">Results and conformity</h2>
              <RequestResults requestId={state.data.requestId} />
            </section>
          )}
          <div className="actions">
            <Link className="button button-secondary" to={`/request-timeline/${userId}/${requestId}`}>
              Timeline
            </Link>
            {state.data.controlNumber && (
              <a className="button button-secondary" href={labelsUrl(requestId)} download={`labels-${state.data.controlNumber}.pdf`}>
                Print labels
              </a>
            )}
          </div>
          {rejecting && (
            <RejectDialog
              subject={state.data.controlNumber ?? `the request of ${state.data.companyName}, submitted ${formatTimestampDay(state.data.submissionDate)}`}
              failureMessage="Error rejecting request. Please try again."
              onReject={reject}
              onClose={() => setRejecting(false)}
            />
          )}
        </>
      )}
    </Page>
  );
}
