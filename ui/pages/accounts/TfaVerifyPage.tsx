import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';

/** /tfaverify: e-mail plus the registration code; success goes to /registered. (Placeholder.) */
export function TfaVerifyPage() {
  return (
    <Page title="Verify your e-mail" note="Enter your e-mail and the authentication code we sent you." width="narrow">
      <div className="form-links">
        <NavButton to="/login" variant="link">
          Back To Log In
        </NavButton>
      </div>
    </Page>
  );
}
