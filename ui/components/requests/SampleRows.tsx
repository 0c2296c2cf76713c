import { useId } from 'react';
import { SPECIES_CODES, speciesLabel, SPECIES_NOT_STATED } from '../../../server/domain/catalog.js';
import { MAX_SAMPLES } from '../../../server/domain/requestPayload.js';
import { FieldError } from '../FieldError.js';
import { describedBy, TextField } from '../TextField.js';

export interface SampleRowsProps {
  samples: readonly string[];
  /** Each row's species of origin ('' for not stated), parallel to `samples`. */
  species: readonly string[];
  onChange: (samples: string[], species: string[]) => void;
  /** What is wrong with a species of origin, shown beside the selects (issue 26). */
  speciesError?: string;
}

/**
 * The sample rows of the submission form: one description each, and the species the meat comes from
 * (optional: it narrows the specifications, issue 26); + adds a row, − removes the last (never the
 * only one).
 */
export function SampleRows({ samples, species, onChange, speciesError }: SampleRowsProps) {
  const id = useId();
  const speciesOf = (i: number) => species[i] ?? '';
  const allSpecies = () => samples.map((_, k) => speciesOf(k));
  return (
    <div className="sample-rows">
      {samples.map((description, i) => (
        <div className="sample-row" key={i}>
          <TextField
            label={`Sample Type Description ${i + 1}`}
            value={description}
            maxLength={500}
            onValueChange={(v) => onChange(samples.map((d, k) => (k === i ? v : d)), allSpecies())}
          />
          <div className="field">
            <label htmlFor={`${id}-species-${i}`}>{`Species of Origin ${i + 1}`}</label>
            <select
              id={`${id}-species-${i}`}
              value={speciesOf(i)}
              aria-invalid={speciesError ? true : undefined}
              aria-describedby={describedBy(`${id}-species`, undefined, speciesError)}
              onChange={(e) => onChange([...samples], allSpecies().map((s, k) => (k === i ? e.target.value : s)))}
            >
              <option value="">{SPECIES_NOT_STATED}</option>
              {SPECIES_CODES.map((code) => (
                <option key={code} value={code}>
                  {speciesLabel(code)}
                </option>
              ))}
            </select>
          </div>
        </div>
      ))}
      <FieldError id={`${id}-species-error`} text={speciesError} />
      <div className="sample-row-buttons">
        <button
          type="button"
          className="button button-secondary button-small"
          disabled={samples.length >= MAX_SAMPLES}
          onClick={() => onChange([...samples, ''], [...allSpecies(), ''])}
        >
          + Add Sample
        </button>
        <button
          type="button"
          className="button button-secondary button-small"
          disabled={samples.length <= 1}
          onClick={() => onChange(samples.slice(0, -1), allSpecies().slice(0, -1))}
        >
          − Remove Sample
        </button>
      </div>
    </div>
  );
}
