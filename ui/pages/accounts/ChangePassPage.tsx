import { useId, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { PASSWORD_MIN, PASSWORDS_DIFFER, passwordsMatch } from '../../../server/domain/accountRules.js';
import { changePassword } from '../../api/accounts.js';
import { isApiError } from '../../api/http.js';
import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';
import { PasswordField } from '../../components/PasswordField.js';

/** /change-pass/{email}: the new password, twice; needs the reset code verified just before. */
export function ChangePassPage() {
  const { email = '' } = useParams();
  const navigate = useNavigate();
  const hintId = useId();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    if (!passwordsMatch(password, repeat)) {
      alert(PASSWORDS_DIFFER);
      return;
    }
    setBusy(true);
    try {
      await changePassword(email, password);
    } catch (error) {
      setBusy(false);
      alert(isApiError(error) ? 'Unsuccessful' : `Failed connection to the server: ${(error as Error).message}`);
      return;
    }
    navigate('/password-changed');
  }

  return (
    <Page title="Change Password" note={`Choose a new password for ${email}.`} width="narrow">
      <form className="form" onSubmit={onSubmit} aria-busy={busy} noValidate>
        <PasswordField
          label="New Password"
          name="newPassword"
          autoComplete="new-password"
          aria-describedby={hintId}
          value={password}
          onValueChange={setPassword}
        />
        <p className="field-hint" id={hintId}>
          At least {PASSWORD_MIN} characters.
        </p>
        <PasswordField label="Repeat Password" name="repeatPassword" autoComplete="new-password" value={repeat} onValueChange={setRepeat} />
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          Change Password
        </button>
        <div className="form-links">
          <NavButton to="/login" variant="link">
            Back To Log In
          </NavButton>
        </div>
      </form>
    </Page>
  );
}
