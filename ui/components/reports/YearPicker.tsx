import { useId } from 'react';

export interface YearPickerProps {
  year: number;
  /** The years offered, most recent first (those with data, GET api/reports/years). */
  years: readonly number[];
  onChange: (year: number) => void;
}

/** A labelled choice of the report year among the years that have data. */
export function YearPicker({ year, years, onChange }: YearPickerProps) {
  const id = useId();
  return (
    <div className="field year-picker">
      <label htmlFor={id}>Year</label>
      <select id={id} value={year} onChange={(e) => onChange(Number(e.target.value))}>
        {years.map((y) => (
          <option key={y} value={y}>
            {y}
          </option>
        ))}
      </select>
    </div>
  );
}
