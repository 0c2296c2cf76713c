export interface RadioChoicesProps<T extends string> {
  /** The radio group's name. */
  name: string;
  options: readonly T[];
  /** The chosen option, or '' for none yet. */
  value: T | '';
  onChange: (value: T) => void;
  /** What an option reads as (default: the option itself). */
  label?: (option: T) => string;
}

/** One radio button per option, in a wrapping row (the fieldset around it names the choice). */
export function RadioChoices<T extends string>({ name, options, value, onChange, label = (option) => option }: RadioChoicesProps<T>) {
  return (
    <div className="choice-list">
      {options.map((option) => (
        <label key={option} className="choice">
          <input type="radio" name={name} value={option} checked={value === option} onChange={() => onChange(option)} />
          {label(option)}
        </label>
      ))}
    </div>
  );
}
