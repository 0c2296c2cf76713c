import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';

/** /password-changed: success message of the password reset. */
export function PasswordChangedPage() {
  return (
    <Page title="Password Changed" note="Your password has been changed. You can now log in with it." width="narrow">
      <div className="actions">
        <NavButton to="/login" variant="primary">
          Go Back
        </NavButton>
      </div>
    </Page>
  );
}
