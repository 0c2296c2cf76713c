import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { homePath, parseRole } from '../../../server/domain/roles.js';
import { verifyLoginCode } from '../../api/session.js';
import { CodeForm } from '../../components/accounts/CodeForm.js';
import { refusalText } from '../../components/accounts/refusal.js';
import { Page } from '../../components/Page.js';
import { safeNextPath } from '../../nextPage.js';
import { STORAGE_KEYS, useSession } from '../../session.js';

/** /tfa/{username}: the e-mailed login code; on success the page the session expired on (?next=), else the user's home. */
export function TfaPage() {
  const { username = '' } = useParams();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const { signInLocally } = useSession();

  /** Stores the `userType/userId` answer and goes home; 'User not found' when it names no user. */
  function signIn(answer: string) {
    localStorage.setItem(STORAGE_KEYS.responseData, answer);
    const slash = answer.indexOf('/');
    const userType = slash >= 0 ? answer.slice(0, slash).trim().toLowerCase() : answer.trim().toLowerCase();
    const userId = slash >= 0 ? answer.slice(slash + 1).trim() : '';
    const role = parseRole(userType);
    if (!userType || !userId || !role || !/^[0-9]+$/.test(userId)) return 'User not found';
    // The stored login data is reset, then set to the verified user.
    localStorage.removeItem(STORAGE_KEYS.userId);
    localStorage.removeItem(STORAGE_KEYS.userType);
    signInLocally(userId, role);
    navigate(safeNextPath(search.get('next')) ?? homePath(role, userId), { replace: true });
  }

  return (
    <Page title="Enter your login code" note="We e-mailed you a 6-digit login code. It is valid for 10 minutes." width="narrow">
      <CodeForm
        codeLabel="Login code"
        label="Log In"
        busyLabel="Loading..."
        kind="login"
        identifier={username}
        send={(code) => verifyLoginCode(username, code.trim())}
        done={signIn}
        failed={(error) => refusalText(error, 'Unsuccessful verification.')}
      >
        <p className="muted">
          Signing in as <strong className="break-anywhere">{username}</strong>
        </p>
      </CodeForm>
    </Page>
  );
}
