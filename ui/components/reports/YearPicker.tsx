import { useId } from 'react';
import { REPORT_YEAR_MIN } from '../../../server/domain/reportShape.js';

export interface YearPickerProps {
  year: number;
  onChange: (year: number) => void;
  /** Most recent year offered; default the current year. */
  latest?: number;
}

/** A labelled choice of the report year, most recent first. */
export function YearPicker({ year, onChange, latest = new Date().getFullYear() }: YearPickerProps) {
  const id = useId();
  const years: number[] = [];
  for (let y = Math.max(latest, year); y >= REPORT_YEAR_MIN; y -= 1) years.push(y);
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
