import { useParams } from 'react-router-dom';
import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';

/** /tfa-forgot-pass/{email}: the e-mailed password reset code. (Placeholder.) */
export function TfaForgotPassPage() {
  const { email = '' } = useParams();
  return (
    <Page title="Enter your reset code" note={`Enter the code we sent to ${email}.`} width="narrow">
      <div className="form-links">
        <NavButton to="/login" variant="link">
          Back To Log In
        </NavButton>
      </div>
    </Page>
  );
}
