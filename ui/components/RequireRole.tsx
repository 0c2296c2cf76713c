import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { isPathAllowed } from '../../server/domain/roles.js';
import { safeNextPath, withNextPage } from '../nextPage.js';
import { homeOf, useSession } from '../session.js';

/**
 * Route guard of SPEC section 6: logged out -> /login (with ?next=this page when the session
 * expired here, so the login screen says so and comes back); a path outside the user's own role
 * prefixes or with another user's id -> the user's home.
 */
export function RequireRole() {
  const { user, expired } = useSession();
  const { pathname, search } = useLocation();
  if (!user) return <Navigate to={withNextPage('/login', expired ? safeNextPath(pathname + search) : null)} replace />;
  if (!isPathAllowed(user.userType, user.userId, pathname)) return <Navigate to={homeOf(user)} replace />;
  return <Outlet />;
}
