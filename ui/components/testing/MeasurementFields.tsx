import { useId } from 'react';
import { QUALIFIER_TEXT, type Decision, type Specification } from '../../../server/domain/specifications.js';
import { DecisionBadge } from '../specifications/DecisionBadge.js';
import { limitText } from '../specifications/format.js';
import { ENTERED_QUALIFIERS, measurementProblems, type MeasurementDraft } from './measurement.js';

export interface MeasurementFieldsProps {
  /** The analyte's panel label and ", sample n": every control is named by both. */
  label: string;
  where: string;
  spec: Specification;
  draft: MeasurementDraft;
  decision: Decision | null;
  onChange: (draft: MeasurementDraft) => void;
}

/**
 * The measured value of an analyte whose specification takes a number: the number in the
 * specification's unit, or "< LOQ" / "not detected" in its place (first-class choices, not text),
 * the optional expanded uncertainty U and its coverage factor k; then the decision the laboratory's
 * rule makes of it, with the reason, before anything is saved.
 */
export function MeasurementFields({ label, where, spec, draft, decision, onChange }: MeasurementFieldsProps) {
  const id = useId();
  const problems = measurementProblems(draft);
  const unit = spec.unit ?? '';
  const named = ` of ${label}${where}`;
  const number = (field: 'number' | 'uncertainty' | 'k', visible: string, hidden: string, className: string) => (
    <span className={`measure-field ${className}`}>
      <label htmlFor={`${id}-${field}`}>
        {visible}
        <span className="visually-hidden">
          {hidden}
          {named}
        </span>
      </label>
      <input
        id={`${id}-${field}`}
        className="text-input"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        value={draft[field]}
        disabled={field !== 'number' && draft.qualifier !== ''}
        aria-invalid={problems[field] ? true : undefined}
        aria-describedby={problems[field] ? `${id}-${field}-error` : undefined}
        onChange={(e) => onChange({ ...draft, [field]: e.target.value, ...(field === 'number' ? { qualifier: '' } : {}) })}
      />
      {field === 'number' && unit && <span className="measure-unit">{unit}</span>}
      {problems[field] && (
        <span className="field-error" id={`${id}-${field}-error`}>
          <span aria-hidden="true">⚠ </span>
          {problems[field]}
        </span>
      )}
    </span>
  );
  const aboveWarning = spec.warningLevel !== null && draft.qualifier === '' && Number(draft.number) >= spec.warningLevel && decision?.outcome === 'conforms';
  return (
    <div className="analyte-measure">
      <div className="measure-inputs" role="group" aria-label={`Measured value${named}`}>
        {number('number', 'Value', '', 'measure-value')}
        <span className="measure-qualifiers">
          {ENTERED_QUALIFIERS.map((q) => (
            <button
              key={q}
              type="button"
              className="qualifier-button"
              aria-pressed={draft.qualifier === q}
              onClick={() => onChange(draft.qualifier === q ? { ...draft, qualifier: '' } : { number: '', uncertainty: '', k: '', qualifier: q })}
            >
              {QUALIFIER_TEXT[q]}
              <span className="visually-hidden">{named}</span>
            </button>
          ))}
        </span>
        {number('uncertainty', 'U', ' (expanded uncertainty)', 'measure-u')}
        {number('k', 'k', ' (coverage factor)', 'measure-k')}
      </div>
      <p className="analyte-decision" aria-live="polite">
        <span className="decision-limit">
          Limit {limitText(spec)} ({spec.source})
        </span>
        {decision && (
          <>
            {' '}
            <DecisionBadge outcome={decision.outcome} />
            <span className="visually-hidden">{named}</span> <span className="decision-reason">{decision.reason}</span>
          </>
        )}
        {aboveWarning && <strong className="decision-warning"> ⚠ At or above the warning level {spec.warningLevel}</strong>}
      </p>
    </div>
  );
}
