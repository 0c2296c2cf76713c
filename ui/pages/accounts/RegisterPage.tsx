import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';

/** /register: client registration form. (Placeholder.) */
export function RegisterPage() {
  return (
    <Page title="Register" note="Create a client account to submit testing requests." width="medium">
      <div className="form-links">
        <NavButton to="/login" variant="link">
          Back To Log In
        </NavButton>
        <NavButton to="/forget" variant="link">
          Forget Password?
        </NavButton>
      </div>
    </Page>
  );
}
