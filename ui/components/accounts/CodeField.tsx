import { TextField } from '../TextField.js';

export interface CodeFieldProps {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Takes the focus when the screen opens (the code is what the screen is for); default true. */
  autoFocus?: boolean;
}

/** A 6-digit e-mailed code: digits only, offered by the browser's one-time-code autofill. */
export function CodeField({ label, value, onValueChange, autoFocus = true }: CodeFieldProps) {
  return (
    <TextField
      label={label}
      name="otp"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]{6}"
      maxLength={6}
      required
      autoFocus={autoFocus}
      hint="The 6-digit code from the e-mail we sent you. It is valid for 10 minutes."
      value={value}
      onValueChange={(v) => onValueChange(v.replace(/\D/g, '').slice(0, 6))}
    />
  );
}
