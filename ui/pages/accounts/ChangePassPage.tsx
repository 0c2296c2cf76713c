import { useId, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { PASSWORD_MIN, PASSWORDS_DIFFER, passwordsMatch } from '../../../server/domain/accountRules.js';
import { changePassword } from '../../api/accounts.js';
import { isApiError } from '../../api/http.js';
import { AccountForm, LINKS } from '../../components/accounts/AccountForm.js';
import { Page } from '../../components/Page.js';
import { PasswordField } from '../../components/PasswordField.js';

/** /change-pass/{email}: the new password, twice; needs the reset code verified just before. */
export function ChangePassPage() {
  const { email = '' } = useParams();
  const navigate = useNavigate();
  const hintId = useId();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');

  return (
    <Page title="Change Password" note={`Choose a new password for ${email}.`} width="narrow">
      <AccountForm
        label="Change Password"
        links={[LINKS.logIn]}
        noValidate
        check={() => (passwordsMatch(password, repeat) ? null : PASSWORDS_DIFFER)}
        send={() => changePassword(email, password)}
        done={() => navigate('/password-changed')}
        failed={(error) => (isApiError(error) ? 'Unsuccessful' : `Failed connection to the server: ${(error as Error).message}`)}
      >
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
      </AccountForm>
    </Page>
  );
}
