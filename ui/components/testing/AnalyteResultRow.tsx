import { useId, useState } from 'react';
import type { Remark } from '../../../server/domain/resultShape.js';
import { MAX_RESULT_LENGTH } from '../../../server/domain/resultShape.js';
import { measurementText, OUTCOME_TEXT, type DecisionRule, type Specification } from '../../../server/domain/specifications.js';
import { ConfirmDialog } from '../ConfirmDialog.js';
import type { ResultDraft } from './drafts.js';
import { draftDecision, EMPTY_MEASUREMENT, measurementOf, takesNumber, type MeasurementDraft } from './measurement.js';
import { MeasurementFields } from './MeasurementFields.js';

export interface AnalyteResultRowProps {
  /** The analyte's panel label, e.g. 'Beta Lactams'. */
  label: string;
  /** 1-based number of the sample in its request. */
  sampleNumber: number;
  draft: ResultDraft;
  /** The row differs from what is stored. */
  unsaved: boolean;
  onChange: (draft: ResultDraft) => void;
  /** The specification that applies (issue 26); one that takes a number adds the measured value. */
  spec?: Specification | null;
  rule?: DecisionRule;
}

const REMARK_BUTTONS: ReadonlyArray<{ remark: Remark; text: string }> = [
  { remark: 'positive', text: '+' },
  { remark: 'negative', text: '-' },
];
const SIGN: Record<Remark, string> = { positive: '+', negative: '-' };

/**
 * One analyte of one sample: a free-text result, the '+' (positive) and '-' (negative) buttons
 * (pressed state shown in green or red; the last click wins), the analysis date, and Clear for a
 * value entered by mistake. Marked while unsaved, and "needs + or -" while a value has no remark
 * (it is saved, but the request is not complete without one).
 *
 * Where the specification is quantitative or a count, the measured value too: its decision shows
 * before saving, the result text and the + / − follow from it, and choosing the other sign asks
 * the tester to confirm it (the server asks for that confirmation too).
 */
export function AnalyteResultRow({ label, sampleNumber, draft, unsaved, onChange, spec = null, rule = 'simple' }: AnalyteResultRowProps) {
  const id = useId();
  const where = `, sample ${sampleNumber}`;
  const needsRemark = draft.value.trim() !== '' && draft.remark === '';
  const decision = draftDecision(draft.measurement, spec, rule);
  const [asking, setAsking] = useState<Remark | null>(null);

  function changeMeasurement(measurement: MeasurementDraft) {
    const unit = spec?.unit ?? null;
    const before = measurementOf(draft.measurement, unit);
    const after = measurementOf(measurement, unit);
    // The result text follows the measurement unless the tester wrote one of their own.
    const followsText = draft.value.trim() === '' || (before !== null && draft.value === measurementText(before));
    const next = draftDecision(measurement, spec, rule);
    onChange({
      ...draft,
      measurement,
      value: followsText ? (after ? measurementText(after) : '') : draft.value,
      remark: next ? next.expectedRemark : draft.remark,
      confirmed: false,
    });
  }

  function pickRemark(remark: Remark) {
    if (decision && remark !== decision.expectedRemark) return setAsking(remark);
    onChange({ ...draft, remark, confirmed: false });
  }

  return (
    <div role="group" aria-label={`${label}${where}`} className={`analyte-row${unsaved ? ' analyte-unsaved' : ''}`}>
      <label className="analyte-label" htmlFor={`${id}-value`}>
        {label}
        <span className="visually-hidden"> result{where}</span>
      </label>
      <input
        id={`${id}-value`}
        className="analyte-value text-input"
        type="text"
        autoComplete="off"
        maxLength={MAX_RESULT_LENGTH}
        placeholder="Result"
        value={draft.value}
        onChange={(e) => onChange({ ...draft, value: e.target.value })}
      />
      <span className="analyte-remarks">
        {REMARK_BUTTONS.map(({ remark, text }) => (
          <button key={remark} type="button" className={`remark-button remark-${remark}`} aria-pressed={draft.remark === remark} onClick={() => pickRemark(remark)}>
            {text}
            <span className="visually-hidden"> {remark}</span>
          </button>
        ))}
      </span>
      <label className="visually-hidden" htmlFor={`${id}-date`}>
        {label} analysis date{where}
      </label>
      <input
        id={`${id}-date`}
        className="analyte-date text-input"
        type="date"
        value={draft.analysisDate}
        onChange={(e) => onChange({ ...draft, analysisDate: e.target.value })}
      />
      <span className="analyte-flags">
        {unsaved && <span className="analyte-flag flag-unsaved">Unsaved</span>}
        {needsRemark && <span className="analyte-flag flag-remark">needs + or -</span>}
        {decision && draft.confirmed && draft.remark !== '' && draft.remark !== decision.expectedRemark && (
          <span className="analyte-flag flag-remark">{SIGN[draft.remark]} confirmed against the decision</span>
        )}
        {draft.value !== '' && (
          <button type="button" className="button-link analyte-clear" onClick={() => onChange({ value: '', remark: '', analysisDate: '' })}>
            Clear<span className="visually-hidden"> {label} result{where}</span>
          </button>
        )}
      </span>
      {takesNumber(spec) && (
        <MeasurementFields
          label={label}
          where={where}
          spec={spec}
          draft={draft.measurement ?? EMPTY_MEASUREMENT}
          decision={decision}
          onChange={changeMeasurement}
        />
      )}
      {asking && decision && (
        <ConfirmDialog
          question={`${label}${where}: the decision is “${OUTCOME_TEXT[decision.outcome]}”, which reads ${SIGN[decision.expectedRemark]}. Record ${SIGN[asking]} (${asking}) instead?`}
          confirmLabel={`Record ${SIGN[asking]} ${asking}`}
          cancelLabel={`Keep ${SIGN[decision.expectedRemark]}`}
          onConfirm={() => {
            onChange({ ...draft, remark: asking, confirmed: true });
            setAsking(null);
          }}
          onCancel={() => setAsking(null)}
        />
      )}
    </div>
  );
}
