import { useCallback, useId, useState } from 'react';
import type { DecisionRule } from '../../../server/domain/specifications.js';
import { getDecisionRule, setDecisionRule } from '../../api/specifications.js';
import { failureText, useLoad } from '../../hooks/useLoad.js';
import { LoadStatus } from '../LoadStatus.js';
import { useNotify } from '../Notice.js';

/** The two rules of ILAC-G8:09/2019 the laboratory may choose, and what each means for a result. */
export const RULES: ReadonlyArray<{ rule: DecisionRule; name: string; explanation: string }> = [
  {
    rule: 'simple',
    name: 'Simple acceptance',
    explanation:
      'The measured value is compared with the limit as it is: within the limit it conforms, beyond it it does not. The uncertainty is stated but not used in the decision, so a value close to the limit carries a risk of up to 50 % of a wrong decision (ILAC-G8:09/2019, 4.2.1).',
  },
  {
    rule: 'guarded',
    name: 'Guarded acceptance (guard band w = U)',
    explanation:
      'The expanded uncertainty U is a guard band around the limit: a result conforms only when the value is at least U inside the limit, does not conform when it is more than U beyond it, and is inconclusive in between. A result stated without U has no guard band (ILAC-G8:09/2019, 4.2.3).',
  },
];

/**
 * The laboratory's decision rule (ISO/IEC 17025 7.1.3, 7.8.6): chosen here for every result, applied
 * automatically, and named on every certificate that states conformity.
 */
export function DecisionRulePanel() {
  const id = useId();
  const notify = useNotify();
  const state = useLoad(useCallback((signal: AbortSignal) => getDecisionRule(signal), []));
  const [chosen, setChosen] = useState<DecisionRule | null>(null);
  const [saved, setSaved] = useState<DecisionRule | null>(null);
  const [busy, setBusy] = useState(false);
  const current = saved ?? (state.status === 'ready' ? state.data : null);
  const value = chosen ?? current;

  async function save() {
    if (!value) return;
    setBusy(true);
    try {
      setSaved(await setDecisionRule(value));
      setChosen(null);
      notify(`Decision rule saved: ${RULES.find((r) => r.rule === value)?.name ?? value}.`, 'success');
    } catch (error) {
      notify(`The decision rule could not be saved: ${failureText(error)}`, 'error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="spec-rule" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Decision rule</h2>
      <LoadStatus state={state} />
      {current && (
        <fieldset className="form-section">
          <legend>The laboratory judges every result by</legend>
          {RULES.map((r) => (
            <div key={r.rule} className="rule-choice">
              <label className="choice">
                <input
                  type="radio"
                  name={`${id}-rule`}
                  value={r.rule}
                  checked={value === r.rule}
                  aria-describedby={`${id}-${r.rule}`}
                  onChange={() => setChosen(r.rule)}
                />
                <strong>{r.name}</strong>
                {current === r.rule && <span className="muted"> (in force)</span>}
              </label>
              <p className="field-hint" id={`${id}-${r.rule}`}>
                {r.explanation}
              </p>
            </div>
          ))}
          <div className="actions">
            <button type="button" className="button button-primary" disabled={busy || value === current} onClick={() => void save()}>
              {busy ? 'Saving...' : 'Save decision rule'}
            </button>
          </div>
        </fieldset>
      )}
    </section>
  );
}
