import { useParams } from 'react-router-dom';
import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';

/** /request-additional-info/{userId}/{requestId}: ask the client for more information. (Placeholder.) */
export function RequestAdditionalInfoPage() {
  const { userId = '' } = useParams();
  return (
    <Page title="Request Additional Information" note="Type your comments down below" width="medium">
      <div className="actions">
        <NavButton to={`/home/staff/${userId}`} variant="primary">
          Done
        </NavButton>
      </div>
    </Page>
  );
}
