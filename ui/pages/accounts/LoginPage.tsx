import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { isApiError } from '../../api/http.js';
import { login, tfaPath } from '../../api/session.js';
import { AccountForm, LINKS } from '../../components/accounts/AccountForm.js';
import { refusalText } from '../../components/accounts/refusal.js';
import { Page } from '../../components/Page.js';
import { PasswordField } from '../../components/PasswordField.js';
import { TextField } from '../../components/TextField.js';
import { safeNextPath, withNextPage } from '../../nextPage.js';
import { SESSION_EXPIRED } from '../../session.js';

/** /login (and every unknown path): e-mail (or username) + password, then the login code screen. */
export function LoginPage() {
  const navigate = useNavigate();
  // Set when a call found the session gone (ui/session.tsx): the user comes back there after logging in.
  const [search] = useSearchParams();
  const next = safeNextPath(search.get('next'));
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const id = identifier.trim();

  return (
    <Page title="Log In" note="Sign in with your e-mail and password. We will e-mail you a login code." width="narrow">
      {next && (
        <p className="form-error" role="alert">
          {SESSION_EXPIRED}
        </p>
      )}
      <AccountForm
        label="Log In"
        busyLabel="Loading..."
        links={[LINKS.forget, LINKS.register]}
        send={() => login(id, password)}
        done={() => navigate(withNextPage(tfaPath(id), next))}
        failed={(error) =>
          isApiError(error)
            ? refusalText(error, 'Your password is incorrect or this account does not exist.')
            : 'An error occurred during login. Please try again.'
        }
      >
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
      </AccountForm>
    </Page>
  );
}
