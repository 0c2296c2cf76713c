import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { verifyRegistration } from '../../api/accounts.js';
import { CodeForm } from '../../components/accounts/CodeForm.js';
import { EmailField } from '../../components/accounts/EmailField.js';
import { Page } from '../../components/Page.js';

/** What /register hands over: the address the code went to. */
export interface TfaVerifyState {
  email?: string;
}

/** /tfaverify: e-mail plus the registration code; success goes to /registered. */
export function TfaVerifyPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState(() => (location.state as TfaVerifyState | null)?.email ?? '');
  // Coming from /register the address is known and the code is what is asked; otherwise the e-mail first.
  const [knewEmail] = useState(email !== '');

  return (
    <Page title="Verify your e-mail" note="Enter your e-mail and the authentication code we sent you." width="narrow">
      <CodeForm
        codeLabel="Authentication code"
        label="Verify"
        busyLabel="Verifying..."
        kind="register"
        identifier={email}
        send={(code) => verifyRegistration(email.trim(), code)}
        done={() => navigate('/registered')}
        // SPEC section 8: a failed client verification is only logged.
        failed={(error) => console.error('Client verification failed', error)}
        focusCode={knewEmail}
      >
        <EmailField required value={email} onValueChange={setEmail} autoFocus={!knewEmail} />
      </CodeForm>
    </Page>
  );
}
