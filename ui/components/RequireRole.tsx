import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { isPathAllowed } from '../../server/domain/roles.js';
import { homeOf, useSession } from '../session.js';

/**
 * Route guard of SPEC section 6: logged out -> /login; a path outside the user's own role
 * prefixes or with another user's id -> the user's home.
 */
export function RequireRole() {
  const { user } = useSession();
  const { pathname } = useLocation();
  if (!user) return <Navigate to="/login" replace />;
  if (!isPathAllowed(user.userType, user.userId, pathname)) return <Navigate to={homeOf(user)} replace />;
  return <Outlet />;
}
