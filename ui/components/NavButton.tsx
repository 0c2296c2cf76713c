import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';

export interface NavButtonProps {
  to: string;
  children: ReactNode;
  variant?: 'primary' | 'secondary' | 'ghost' | 'link';
  className?: string;
}

/** A button that navigates ('Go Back', 'Back', 'Done', 'Register', ...), as the screens call them buttons. */
export function NavButton({ to, children, variant = 'secondary', className }: NavButtonProps) {
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className={`button button-${variant}${className ? ` ${className}` : ''}`}
      onClick={() => navigate(to)}
    >
      {children}
    </button>
  );
}
