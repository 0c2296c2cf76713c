import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { homePath, parseRole, type Role } from '../server/domain/roles.js';
import { isApiError, UNAUTHORIZED_EVENT } from './api/http.js';
import { getMe, logout } from './api/session.js';
import { Brand } from './components/Brand.js';

/**
 * The UI's idea of who is signed in (SPEC section 2, "Shell behaviour").
 *
 * Local storage keys `userId` and `userType` (lower-case role) drive routing: when both hold a
 * valid value the user counts as logged in. Authority is the server session, so on load the
 * provider confirms with GET /me: 401 clears the storage (logged out); another user in the answer
 * is adopted. Until that answer arrives the provider renders the portal's frame with 'Loading...'
 * instead of its children: the same frame index.html paints before the scripts run, so nothing
 * jumps or flashes between that first paint and the screen.
 */

export const STORAGE_KEYS = {
  userId: 'userId',
  userType: 'userType',
  /** The raw `userType/userId` answer of POST /verify-otp. */
  responseData: 'responseData',
} as const;

export interface SessionUser {
  /** Decimal user id, as stored. */
  userId: string;
  /** Lower-case role, as stored ('client', 'staff', 'chemtester', ...). */
  userType: Role;
}

export interface SessionContextValue {
  /** The logged-in user, or null when logged out. */
  user: SessionUser | null;
  /** Stores userId/userType in local storage and marks the user logged in. */
  signInLocally: (userId: string | number, userType: string) => void;
  /** A call found the server session gone: the login screen says so and comes back here after. */
  expired: boolean;
  /** POST /logout (failures ignored), clears userId, userType and responseData, goes to /login. */
  signOut: () => Promise<void>;
}

const SessionContext = createContext<SessionContextValue | null>(null);

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function toUser(userId: unknown, userType: unknown): SessionUser | null {
  const id = typeof userId === 'number' ? String(userId) : typeof userId === 'string' ? userId.trim() : '';
  const role = parseRole(typeof userType === 'string' ? userType : null);
  if (!role || !/^[0-9]+$/.test(id)) return null;
  return { userId: id, userType: role };
}

/** The user stored in local storage, or null when either value is missing or invalid. */
export function readStoredUser(): SessionUser | null {
  const store = storage();
  if (!store) return null;
  return toUser(store.getItem(STORAGE_KEYS.userId), store.getItem(STORAGE_KEYS.userType));
}

function writeStoredUser(user: SessionUser): void {
  const store = storage();
  store?.setItem(STORAGE_KEYS.userId, user.userId);
  store?.setItem(STORAGE_KEYS.userType, user.userType);
}

export const SESSION_EXPIRED = 'Your session has expired';

/** Removes userId, userType and responseData from local storage. */
export function clearStoredLogin(): void {
  const store = storage();
  for (const key of Object.values(STORAGE_KEYS)) store?.removeItem(key);
}

function sameUser(a: SessionUser | null, b: SessionUser | null): boolean {
  return a?.userId === b?.userId && a?.userType === b?.userType;
}

/** Home of a user (/home/{userType}/{userId}; admins use the staff home), or /login. */
export function homeOf(user: SessionUser | null): string {
  return user ? homePath(user.userType, user.userId) : '/login';
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const [user, setUser] = useState<SessionUser | null>(readStoredUser);
  const [expired, setExpired] = useState(false);
  const [confirming, setConfirming] = useState<boolean>(() => readStoredUser() !== null);

  // Confirm the stored login with the server session once, on load.
  useEffect(() => {
    if (readStoredUser() === null) return;
    const controller = new AbortController();
    getMe(controller.signal)
      .then((me) => {
        const serverUser = toUser(me.id, me.role);
        if (!serverUser) return;
        if (!sameUser(readStoredUser(), serverUser)) writeStoredUser(serverUser);
        setUser((current) => (sameUser(current, serverUser) ? current : serverUser));
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        if (isApiError(error) && error.status === 401) {
          clearStoredLogin();
          setUser(null);
        }
        // Other failures (server unreachable, 5xx): keep the stored login; calls will tell.
      })
      .finally(() => {
        if (!controller.signal.aborted) setConfirming(false);
      });
    return () => controller.abort();
  }, []);

  // A call answered 401 while we thought we were signed in: the session expired (or was ended
  // elsewhere). Forget the login, so the header shows no user; the route guard (RequireRole) then
  // sends the user to log in and back, being the one place that redirects a logged-out user.
  useEffect(() => {
    function onUnauthorized() {
      if (readStoredUser() === null) return;
      clearStoredLogin();
      setExpired(true);
      setUser(null);
    }
    window.addEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
    return () => window.removeEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
  }, []);

  // Coming back to a tab that sat idle: ask the server whether the session still holds, so the
  // header does not show a user whose session expired meanwhile (a 401 is handled just above).
  useEffect(() => {
    function onVisible() {
      if (document.visibilityState === 'visible' && readStoredUser() !== null) getMe().catch(() => undefined);
    }
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, []);

  // Follow logins and logouts made in other tabs.
  useEffect(() => {
    function onStorage(event: StorageEvent) {
      if (event.key !== null && event.key !== STORAGE_KEYS.userId && event.key !== STORAGE_KEYS.userType) return;
      const stored = readStoredUser();
      setUser((current) => (sameUser(current, stored) ? current : stored));
    }
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const signInLocally = useCallback((userId: string | number, userType: string) => {
    const next = toUser(userId, userType);
    if (!next) throw new Error(`Not a valid login: ${String(userType)}/${String(userId)}`);
    writeStoredUser(next);
    setExpired(false);
    setUser(next);
  }, []);

  const signOut = useCallback(async () => {
    try {
      await logout();
    } catch {
      // the session may already be gone; the local logout still happens
    }
    clearStoredLogin();
    setExpired(false);
    setUser(null);
    navigate('/login', { replace: true });
  }, [navigate]);

  const value = useMemo<SessionContextValue>(
    () => ({ user, expired, signInLocally, signOut }),
    [user, expired, signInLocally, signOut],
  );

  if (confirming) return <BootFrame />;
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/**
 * The frame of index.html (header without buttons, 'Loading...', footer), drawn while GET /me
 * confirms the stored login; Header and Footer draw the same frame once a screen shows.
 */
function BootFrame() {
  return (
    <div className="app-shell">
      <header className="site-header">
        <div className="site-header-inner">
          <Brand />
        </div>
      </header>
      <main className="site-main">
        <p role="status" className="frame-loading">
          Loading...
        </p>
      </main>
      <footer className="site-footer">
        <p>All Rights Reserved</p>
      </footer>
    </div>
  );
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}
