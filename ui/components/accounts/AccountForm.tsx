import type { ReactNode } from 'react';
import { NavButton } from '../NavButton.js';
import { useSubmit, type SubmitSteps } from './useSubmit.js';

export interface FormLink {
  to: string;
  label: string;
}

/** The links under the account forms. */
export const LINKS = {
  logIn: { to: '/login', label: 'Back To Log In' },
  register: { to: '/register', label: 'Register' },
  forget: { to: '/forget', label: 'Forget Password?' },
} satisfies Record<string, FormLink>;

export interface AccountFormProps<T> extends SubmitSteps<T> {
  /** The submit button's text. */
  label: string;
  /** Its text while the call runs (default: unchanged). */
  busyLabel?: string;
  links: readonly FormLink[];
  /** Between the submit button and the links. */
  footer?: ReactNode;
  /** Leave the required-field checks to the page's own message. */
  noValidate?: boolean;
  children: ReactNode;
}

/** A form of the account screens: fields, one full-width submit button, then links to other screens. */
export function AccountForm<T>({ label, busyLabel, links, footer, noValidate, children, ...steps }: AccountFormProps<T>) {
  const { busy, problem, onSubmit } = useSubmit(steps);
  return (
    <form className="form" onSubmit={onSubmit} aria-busy={busy} noValidate={noValidate}>
      {children}
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" className="button button-primary button-block" disabled={busy}>
        {busy && busyLabel ? busyLabel : label}
      </button>
      {footer}
      <div className="form-links">
        {links.map((link) => (
          <NavButton key={link.to} to={link.to} variant="link">
            {link.label}
          </NavButton>
        ))}
      </div>
    </form>
  );
}
