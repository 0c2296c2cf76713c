import { Link } from 'react-router-dom';

/** The back arrow above a request screen; its text names where it leads. */
export function BackArrow({ to, label }: { to: string; label: string }) {
  return (
    <Link to={to} className="back-arrow">
      <span aria-hidden="true">←</span> {label}
    </Link>
  );
}
