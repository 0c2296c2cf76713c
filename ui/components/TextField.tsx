import { useId, type InputHTMLAttributes } from 'react';
import { FieldError } from './FieldError.js';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Help text under the input, linked with aria-describedby. */
  hint?: string;
  /** What is wrong with the value, shown beside it (the input is then aria-invalid). */
  error?: string;
}

/** The ids an input is described by: what its caller names, its hint and its error, when shown. */
export const describedBy = (id: string, hint: unknown, error: string | undefined, also?: string) =>
  [also ?? '', hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

/** A labelled input (type text by default). */
export function TextField({ label, value, onValueChange, hint, error, type = 'text', ...rest }: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        {...rest}
        id={id}
        type={type}
        value={value}
        aria-describedby={describedBy(id, hint, error, rest['aria-describedby'])}
        aria-invalid={error ? true : rest['aria-invalid']}
        onChange={(e) => onValueChange(e.target.value)}
      />
      <FieldError id={`${id}-error`} text={error} />
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
    </div>
  );
}
