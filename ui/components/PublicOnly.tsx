import { Navigate, Outlet, useSearchParams } from 'react-router-dom';
import { safeNextPath } from '../nextPage.js';
import { homeOf, useSession } from '../session.js';

/**
 * Public screens (and unknown paths): a logged-in user is sent to its own home, or, just logged in
 * from a screen that carries ?next= (the session had expired there), back to that page.
 */
export function PublicOnly() {
  const { user } = useSession();
  const [search] = useSearchParams();
  if (user) return <Navigate to={safeNextPath(search.get('next')) ?? homeOf(user)} replace />;
  return <Outlet />;
}
