import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { checkUser, forgotPassPath } from '../../api/accounts.js';
import { isApiError } from '../../api/http.js';
import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';
import { TextField } from '../../components/TextField.js';

/** /forget: asks for the e-mail; a known one gets a reset code, an unknown one goes to /not-in-system. */
export function ForgetPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const address = email.trim();
    setBusy(true);
    try {
      await checkUser(address);
    } catch (error) {
      setBusy(false);
      if (isApiError(error) && error.status === 404) navigate('/not-in-system');
      else alert(isApiError(error) ? error.message : 'Failed connection to the server. Please check your connection and try again.');
      return;
    }
    navigate(forgotPassPath(address));
  }

  return (
    <Page title="Forgot Password" note="Enter your e-mail and we will send you a code to reset your password." width="narrow">
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
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? 'Verifying Email...' : 'Verify Email'}
        </button>
        <div className="form-links">
          <NavButton to="/login" variant="link">
            Back To Log In
          </NavButton>
          <NavButton to="/register" variant="link">
            Register
          </NavButton>
        </div>
      </form>
    </Page>
  );
}
