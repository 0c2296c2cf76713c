import { MAX_SAMPLES } from '../../../server/domain/requestPayload.js';
import { TextField } from '../TextField.js';

/** The sample rows of the submission form: one description each; + adds a row, − removes the last (never the only one). */
export function SampleRows({ samples, onChange }: { samples: readonly string[]; onChange: (samples: string[]) => void }) {
  return (
    <div className="sample-rows">
      {samples.map((description, i) => (
        <TextField
          key={i}
          label={`Sample Type Description ${i + 1}`}
          value={description}
          maxLength={500}
          onValueChange={(v) => onChange(samples.map((d, k) => (k === i ? v : d)))}
        />
      ))}
      <div className="sample-row-buttons">
        <button
          type="button"
          className="button button-secondary button-small"
          disabled={samples.length >= MAX_SAMPLES}
          onClick={() => onChange([...samples, ''])}
        >
          + Add Sample
        </button>
        <button
          type="button"
          className="button button-secondary button-small"
          disabled={samples.length <= 1}
          onClick={() => onChange(samples.slice(0, -1))}
        >
          − Remove Sample
        </button>
      </div>
    </div>
  );
}
