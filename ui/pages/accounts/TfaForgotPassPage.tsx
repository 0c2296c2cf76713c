import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { changePassPath, verifyResetCode } from '../../api/accounts.js';
import { CodeField } from '../../components/accounts/CodeField.js';
import { refusalText } from '../../components/accounts/refusal.js';
import { ResendCode } from '../../components/accounts/ResendCode.js';
import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';

/** /tfa-forgot-pass/{email}: the e-mailed password reset code; success leads to /change-pass/{email}. */
export function TfaForgotPassPage() {
  const { email = '' } = useParams();
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      await verifyResetCode(email, code);
    } catch (error) {
      setBusy(false);
      alert(refusalText(error, 'The OTP you have provided is incorrect or expired'));
      return;
    }
    navigate(changePassPath(email));
  }

  return (
    <Page title="Enter your reset code" note={`Enter the code we sent to ${email}.`} width="narrow">
      <form className="form" onSubmit={onSubmit} aria-busy={busy}>
        <CodeField label="Reset code" value={code} onValueChange={setCode} />
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          Verify OTP
        </button>
        <ResendCode kind="reset" identifier={email} />
        <div className="form-links">
          <NavButton to="/login" variant="link">
            Back To Log In
          </NavButton>
        </div>
      </form>
    </Page>
  );
}
