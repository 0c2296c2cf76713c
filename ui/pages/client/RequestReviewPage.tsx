import { useParams } from 'react-router-dom';
import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';

/** /request-review/{userId}/{requestId}: read-only view of a request in progress. (Placeholder.) */
export function RequestReviewPage() {
  const { userId = '', requestId = '' } = useParams();
  return (
    <Page title="Request Review" note={`Details of request ${requestId} as submitted.`} width="wide">
      <div className="actions">
        <NavButton to={`/track-my-request/${userId}`}>Back</NavButton>
      </div>
    </Page>
  );
}
