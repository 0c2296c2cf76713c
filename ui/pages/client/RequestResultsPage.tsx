import { useParams } from 'react-router-dom';
import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';

/** /request-results/{userId}/{requestId}: results of a released request. (Placeholder.) */
export function RequestResultsPage() {
  const { userId = '', requestId = '' } = useParams();
  return (
    <Page title="Request Results" note={`Released results of request ${requestId}.`} width="wide">
      <div className="actions">
        <NavButton to={`/track-my-request/${userId}`}>Back</NavButton>
      </div>
    </Page>
  );
}
