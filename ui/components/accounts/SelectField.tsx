import { useId, type SelectHTMLAttributes } from 'react';
import { FieldError } from '../FieldError.js';
import { describedBy } from '../TextField.js';

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'value' | 'onChange'> {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  options: readonly string[];
  /** The first, empty choice shown until one is made. */
  placeholder: string;
  /** What is wrong with the choice, shown beside it. */
  error?: string;
}

/** A labelled drop-down list of text options. */
export function SelectField({ label, value, onValueChange, options, placeholder, error, ...rest }: SelectFieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        {...rest}
        id={id}
        value={value}
        aria-describedby={describedBy(id, undefined, error, rest['aria-describedby'])}
        aria-invalid={error ? true : rest['aria-invalid']}
        onChange={(e) => onValueChange(e.target.value)}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
      <FieldError id={`${id}-error`} text={error} />
    </div>
  );
}
