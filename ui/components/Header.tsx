import { homeOf, useSession } from '../session.js';
import { useConfirmedLeave } from '../hooks/useUnsavedGuard.js';
import { Brand } from './Brand.js';
import { NavButton } from './NavButton.js';

/** Product title, the Home button and (when logged in) the Log out button; on every screen. */
export function Header() {
  const { user, signOut } = useSession();
  // Logging out leaves the page too: unsaved entries are asked about first.
  const logOut = useConfirmedLeave(() => void signOut());
  return (
    <header className="site-header">
      <div className="site-header-inner">
        <Brand />
        <nav className="header-actions" aria-label="Account">
          <NavButton to={homeOf(user)} variant="ghost">
            Home
          </NavButton>
          {user && (
            <button type="button" className="button button-ghost" onClick={logOut.request}>
              Log out
            </button>
          )}
          {logOut.dialog}
        </nav>
      </div>
    </header>
  );
}
