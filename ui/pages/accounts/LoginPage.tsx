import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { isApiError } from '../../api/http.js';
import { login, tfaPath } from '../../api/session.js';
import { refusalText } from '../../components/accounts/refusal.js';
import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';
import { PasswordField } from '../../components/PasswordField.js';
import { TextField } from '../../components/TextField.js';

/** /login (and every unknown path): e-mail (or username) + password, then the login code screen. */
export function LoginPage() {
  const navigate = useNavigate();
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const id = identifier.trim();
    setBusy(true);
    try {
      await login(id, password);
    } catch (error) {
      setBusy(false);
      alert(
        isApiError(error)
          ? refusalText(error, 'Your password is incorrect or this account does not exist.')
          : 'An error occurred during login. Please try again.',
      );
      return;
    }
    navigate(tfaPath(id));
  }

  return (
    <Page title="Log In" note="Sign in with your e-mail and password. We will e-mail you a login code." width="narrow">
      <form className="form" onSubmit={onSubmit} aria-busy={busy}>
        <TextField
          label="Email"
          name="identifier"
          inputMode="email"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          hint="You can also use your username."
          value={identifier}
          onValueChange={setIdentifier}
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onValueChange={setPassword}
        />
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? 'Loading...' : 'Log In'}
        </button>
        <div className="form-links">
          <NavButton to="/forget" variant="link">
            Forget Password?
          </NavButton>
          <NavButton to="/register" variant="link">
            Register
          </NavButton>
        </div>
      </form>
    </Page>
  );
}
