import { useParams } from 'react-router-dom';
import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';

/** /request-details/{userId}/{requestId}: a pending request, to approve or reject. (Placeholder.) */
export function RequestDetailsPage() {
  const { userId = '', requestId = '' } = useParams();
  return (
    <Page title="Request Details" note={`Request ${requestId}: review it, then approve or reject it.`} width="wide">
      <div className="actions">
        <NavButton to={`/pending-requests/${userId}`}>Back</NavButton>
      </div>
    </Page>
  );
}
