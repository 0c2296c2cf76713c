import { useId, useState, type InputHTMLAttributes } from 'react';
import { FieldError } from './FieldError.js';
import { describedBy } from './TextField.js';

export interface PasswordFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id'> {
  /** Visible label, e.g. 'Password', 'New Password'. */
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** What is wrong with the value, shown beside it. */
  error?: string;
}

/**
 * A labelled password input with a Show/Hide toggle button (named 'Show password' /
 * 'Hide password' after the label).
 */
export function PasswordField({ label, value, onValueChange, error, ...rest }: PasswordFieldProps) {
  const id = useId();
  const [shown, setShown] = useState(false);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="password-field">
        <input
          {...rest}
          id={id}
          type={shown ? 'text' : 'password'}
          value={value}
          aria-describedby={describedBy(id, undefined, error, rest['aria-describedby'])}
          aria-invalid={error ? true : rest['aria-invalid']}
          onChange={(e) => onValueChange(e.target.value)}
        />
        <button
          type="button"
          className="button button-small button-ghost"
          aria-pressed={shown}
          aria-controls={id}
          onClick={() => setShown((s) => !s)}
        >
          {shown ? 'Hide' : 'Show'}
          <span className="visually-hidden"> {label.toLowerCase()}</span>
        </button>
      </div>
      <FieldError id={`${id}-error`} text={error} />
    </div>
  );
}
