import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { homePath, parseRole } from '../../../server/domain/roles.js';
import { verifyLoginCode } from '../../api/session.js';
import { CodeField } from '../../components/accounts/CodeField.js';
import { refusalText } from '../../components/accounts/refusal.js';
import { ResendCode } from '../../components/accounts/ResendCode.js';
import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';
import { STORAGE_KEYS, useSession } from '../../session.js';

/** /tfa/{username}: the e-mailed login code; on success the user's home. */
export function TfaPage() {
  const { username = '' } = useParams();
  const navigate = useNavigate();
  const { signInLocally } = useSession();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    let answer: string;
    try {
      answer = await verifyLoginCode(username, code.trim());
    } catch (error) {
      setBusy(false);
      alert(refusalText(error, 'Unsuccessful verification.'));
      return;
    }
    localStorage.setItem(STORAGE_KEYS.responseData, answer);
    const slash = answer.indexOf('/');
    const userType = slash >= 0 ? answer.slice(0, slash).trim().toLowerCase() : answer.trim().toLowerCase();
    const userId = slash >= 0 ? answer.slice(slash + 1).trim() : '';
    const role = parseRole(userType);
    if (!userType || !userId || !role || !/^[0-9]+$/.test(userId)) {
      setBusy(false);
      alert('User not found');
      return;
    }
    // The stored login data is reset, then set to the verified user.
    localStorage.removeItem(STORAGE_KEYS.userId);
    localStorage.removeItem(STORAGE_KEYS.userType);
    signInLocally(userId, role);
    navigate(homePath(role, userId), { replace: true });
  }

  return (
    <Page title="Enter your login code" note="We e-mailed you a 6-digit login code. It is valid for 10 minutes." width="narrow">
      <form className="form" onSubmit={onSubmit} aria-busy={busy}>
        <p className="muted">
          Signing in as <strong className="break-anywhere">{username}</strong>
        </p>
        <CodeField label="Login code" value={code} onValueChange={setCode} />
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? 'Loading...' : 'Log In'}
        </button>
        <ResendCode kind="login" identifier={username} />
        <div className="form-links">
          <NavButton to="/login" variant="link">
            Back To Log In
          </NavButton>
        </div>
      </form>
    </Page>
  );
}
