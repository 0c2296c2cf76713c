import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { checkUser, forgotPassPath } from '../../api/accounts.js';
import { isApiError } from '../../api/http.js';
import { AccountForm, LINKS } from '../../components/accounts/AccountForm.js';
import { EmailField } from '../../components/accounts/EmailField.js';
import { Page } from '../../components/Page.js';

/** /forget: asks for the e-mail; a known one gets a reset code, an unknown one goes to /not-in-system. */
export function ForgetPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const address = email.trim();

  return (
    <Page title="Forgot Password" note="Enter your e-mail and we will send you a code to reset your password." width="narrow">
      <AccountForm
        label="Verify Email"
        busyLabel="Verifying Email..."
        links={[LINKS.logIn, LINKS.register]}
        send={() => checkUser(address)}
        done={() => navigate(forgotPassPath(address))}
        failed={(error) => {
          if (isApiError(error) && error.status === 404) return void navigate('/not-in-system');
          return isApiError(error) ? error.message : 'Failed connection to the server. Please check your connection and try again.';
        }}
      >
        <EmailField required value={email} onValueChange={setEmail} />
      </AccountForm>
    </Page>
  );
}
