import { useId, useState, type InputHTMLAttributes } from 'react';

export interface PasswordFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id'> {
  /** Visible label, e.g. 'Password', 'New Password'. */
  label: string;
  value: string;
  onValueChange: (value: string) => void;
}

/**
 * A labelled password input with a Show/Hide toggle button (named 'Show password' /
 * 'Hide password' after the label).
 */
export function PasswordField({ label, value, onValueChange, ...rest }: PasswordFieldProps) {
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
    </div>
  );
}
