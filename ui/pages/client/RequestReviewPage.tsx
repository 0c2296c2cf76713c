import { useCallback } from 'react';
import { Link, useParams } from 'react-router-dom';
import { getRequestDetail } from '../../api/requests.js';
import { LoadStatus } from '../../components/LoadStatus.js';
import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';
import { BackArrow } from '../../components/requests/BackArrow.js';
import { RequestMessages } from '../../components/requests/RequestMessages.js';
import { RequestSummary } from '../../components/requests/RequestSummary.js';
import { RequestReceipt } from '../../components/traceability/RequestReceipt.js';
import { useLoad } from '../../hooks/useLoad.js';
import '../../styles/client.css';

/** /request-review/{userId}/{requestId}: the client's own request, read-only (DESIGN.md section 10). */
export function RequestReviewPage() {
  const { userId = '', requestId = '' } = useParams();
  const state = useLoad(useCallback((signal: AbortSignal) => getRequestDetail(requestId, signal), [requestId]));
  const back = `/track-my-request/${userId}`;

  return (
    <Page title="Request Review" width="wide">
      <BackArrow to={back} label="My requests" />
      <LoadStatus state={state} loading="Loading sample inputs..." />
      {state.status === 'ready' && (
        <>
          <RequestSummary request={state.data} samples={state.data.samples} />
          <RequestMessages requestId={state.data.requestId} requestStatus={state.data.requestStatus} />
          <RequestReceipt requestId={state.data.requestId} />
        </>
      )}
      <div className="actions">
        <NavButton to={back}>Back</NavButton>
        <Link className="button button-secondary" to={`/request-timeline/${userId}/${requestId}`}>
          Timeline
        </Link>
      </div>
    </Page>
  );
}
