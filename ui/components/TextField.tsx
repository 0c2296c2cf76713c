import { useId, type InputHTMLAttributes } from 'react';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Help text under the input, linked with aria-describedby. */
  hint?: string;
}

/** A labelled input (type text by default). */
export function TextField({ label, value, onValueChange, hint, type = 'text', ...rest }: TextFieldProps) {
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
        aria-describedby={hint ? hintId : undefined}
        onChange={(e) => onValueChange(e.target.value)}
      />
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
    </div>
  );
}
