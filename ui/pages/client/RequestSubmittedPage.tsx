import { useParams } from 'react-router-dom';
import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';

/** /request-submitted/{userId}. Go Back leads to the client's own home (DESIGN section 10). */
export function RequestSubmittedPage() {
  const { userId = '' } = useParams();
  return (
    <Page
      title="Request Submitted for Compliance Check"
      note="We received your request. Follow its progress in Track My Request."
      width="narrow"
    >
      <div className="actions">
        <NavButton to={`/home/client/${userId}`} variant="primary">
          Go Back
        </NavButton>
      </div>
    </Page>
  );
}
