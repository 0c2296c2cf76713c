import { useId } from 'react';
import type { Remark } from '../../../server/domain/resultShape.js';
import { MAX_RESULT_LENGTH } from '../../../server/domain/resultShape.js';
import type { ResultDraft } from './drafts.js';

export interface AnalyteResultRowProps {
  /** The analyte's panel label, e.g. 'Beta Lactams'. */
  label: string;
  /** 1-based number of the sample in its request. */
  sampleNumber: number;
  draft: ResultDraft;
  /** The row differs from what is stored. */
  unsaved: boolean;
  onChange: (draft: ResultDraft) => void;
}

const REMARK_BUTTONS: ReadonlyArray<{ remark: Remark; text: string }> = [
  { remark: 'positive', text: '+' },
  { remark: 'negative', text: '-' },
];

/**
 * One analyte of one sample: a free-text result, the '+' (positive) and '-' (negative) buttons
 * (pressed state shown in green or red; the last click wins), the analysis date, and Clear for a
 * value entered by mistake. Marked while unsaved, and "needs + or -" while a value has no remark
 * (it is saved, but the request is not complete without one).
 */
export function AnalyteResultRow({ label, sampleNumber, draft, unsaved, onChange }: AnalyteResultRowProps) {
  const id = useId();
  const where = `, sample ${sampleNumber}`;
  const needsRemark = draft.value.trim() !== '' && draft.remark === '';
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
          <button
            key={remark}
            type="button"
            className={`remark-button remark-${remark}`}
            aria-pressed={draft.remark === remark}
            onClick={() => onChange({ ...draft, remark })}
          >
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
        {draft.value !== '' && (
          <button type="button" className="button-link analyte-clear" onClick={() => onChange({ value: '', remark: '', analysisDate: '' })}>
            Clear<span className="visually-hidden"> {label} result{where}</span>
          </button>
        )}
      </span>
    </div>
  );
}
