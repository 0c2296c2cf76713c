import { useNavigate, useParams } from 'react-router-dom';
import { changePassPath, verifyResetCode } from '../../api/accounts.js';
import { CodeForm } from '../../components/accounts/CodeForm.js';
import { refusalText } from '../../components/accounts/refusal.js';
import { Page } from '../../components/Page.js';

/** /tfa-forgot-pass/{email}: the e-mailed password reset code; success leads to /change-pass/{email}. */
export function TfaForgotPassPage() {
  const { email = '' } = useParams();
  const navigate = useNavigate();

  return (
    <Page title="Enter your reset code" note={`Enter the code we sent to ${email}.`} width="narrow">
      <CodeForm
        codeLabel="Reset code"
        label="Verify OTP"
        kind="reset"
        identifier={email}
        send={(code) => verifyResetCode(email, code)}
        done={() => navigate(changePassPath(email))}
        failed={(error) => refusalText(error, 'The OTP you have provided is incorrect or expired')}
      />
    </Page>
  );
}
