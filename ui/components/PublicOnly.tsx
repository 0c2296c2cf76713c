import { Navigate, Outlet } from 'react-router-dom';
import { homeOf, useSession } from '../session.js';

/** Public screens (and unknown paths): a logged-in user is sent to its own home. */
export function PublicOnly() {
  const { user } = useSession();
  if (user) return <Navigate to={homeOf(user)} replace />;
  return <Outlet />;
}
