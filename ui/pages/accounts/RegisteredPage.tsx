import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';

/** /registered: end of the registration. */
export function RegisteredPage() {
  return (
    <Page title="Thank you for registering" note="Your account is verified. You can now log in." width="narrow">
      <div className="actions">
        <NavButton to="/login" variant="primary">
          Go Back
        </NavButton>
      </div>
    </Page>
  );
}
