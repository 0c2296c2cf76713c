import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';

/** /forget: asks for the e-mail and sends a reset code. (Placeholder.) */
export function ForgetPage() {
  return (
    <Page title="Forgot Password" note="Enter your e-mail and we will send you a code to reset your password." width="narrow">
      <div className="form-links">
        <NavButton to="/login" variant="link">
          Back To Log In
        </NavButton>
        <NavButton to="/register" variant="link">
          Register
        </NavButton>
      </div>
    </Page>
  );
}
