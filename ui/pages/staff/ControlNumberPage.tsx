import { useParams } from 'react-router-dom';
import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';

/**
 * /request-control-number/{userId}/{requestId} and /approved/{userId}: the control number of an
 * approved request (for /approved, the request this staff member approved last). (Placeholder.)
 */
export function ControlNumberPage() {
  const { userId = '' } = useParams();
  return (
    <Page title="Request Approved" note="The control number of the approved request." width="narrow">
      <div className="actions">
        <NavButton to={`/home/staff/${userId}`} variant="primary">
          Done
        </NavButton>
      </div>
    </Page>
  );
}
