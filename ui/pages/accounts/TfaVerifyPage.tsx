import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { verifyRegistration } from '../../api/accounts.js';
import { CodeField } from '../../components/accounts/CodeField.js';
import { ResendCode } from '../../components/accounts/ResendCode.js';
import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';
import { TextField } from '../../components/TextField.js';

/** What /register hands over: the address the code went to. */
export interface TfaVerifyState {
  email?: string;
}

/** /tfaverify: e-mail plus the registration code; success goes to /registered. */
export function TfaVerifyPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState(() => (location.state as TfaVerifyState | null)?.email ?? '');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      await verifyRegistration(email.trim(), code);
    } catch (error) {
      // SPEC section 8: a failed client verification is only logged.
      console.error('Client verification failed', error);
      setBusy(false);
      return;
    }
    navigate('/registered');
  }

  return (
    <Page title="Verify your e-mail" note="Enter your e-mail and the authentication code we sent you." width="narrow">
      <form className="form" onSubmit={onSubmit} aria-busy={busy}>
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          required
          value={email}
          onValueChange={setEmail}
        />
        <CodeField label="Authentication code" value={code} onValueChange={setCode} />
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? 'Verifying...' : 'Verify'}
        </button>
        <ResendCode kind="register" identifier={email} />
        <div className="form-links">
          <NavButton to="/login" variant="link">
            Back To Log In
          </NavButton>
        </div>
      </form>
    </Page>
  );
}
