import { useId } from 'react';
import {
  analytesOfGroup,
  FAMILIES,
  FAMILY_LABELS,
  FAMILY_TURNAROUND_TEXT,
  GROUP_SECTION_TITLES,
  GROUPS,
  SAMPLE_CONDITION_NOTES,
  type Analyte,
} from '../../../server/domain/catalog.js';
import { TextField } from '../TextField.js';
import { php } from './format.js';

export type GramField = 'gramPositiveAst' | 'gramNegativeAst';

export interface TestSelectionProps {
  /** Codes of the ticked tests. */
  tests: readonly string[];
  onToggle: (code: string, ticked: boolean) => void;
  gramPositiveAst: string;
  gramNegativeAst: string;
  onGramChange: (field: GramField, value: string) => void;
}

const CULTURE = 'cultureAndSensitivityTest';

function TestCheckbox({ analyte, checked, onToggle }: { analyte: Analyte; checked: boolean; onToggle: TestSelectionProps['onToggle'] }) {
  const id = useId();
  const perPanel = analyte.code === CULTURE ? ' per panel' : '';
  return (
    <li className="test-option">
      <input
        type="checkbox"
        id={id}
        checked={checked}
        aria-describedby={`${id}-price`}
        onChange={(e) => onToggle(analyte.code, e.target.checked)}
      />
      <label htmlFor={id}>{analyte.orderLabel}</label>
      <span className="test-price" id={`${id}-price`}>
        {php(analyte.price)}
        {perPanel}
      </span>
    </li>
  );
}

/**
 * Section 4 of the submission form: every orderable test grouped by family and group, with its
 * price, the family's turnaround and sample condition notes. Culture and Sensitivity reveals the
 * gram positive and gram negative AST inputs.
 */
export function TestSelection({ tests, onToggle, gramPositiveAst, gramNegativeAst, onGramChange }: TestSelectionProps) {
  return (
    <div className="test-families">
      {FAMILIES.map((family) => (
        <section key={family} className="test-family" aria-label={`${FAMILY_LABELS[family]} tests`}>
          <h3>{FAMILY_LABELS[family]}</h3>
          <p className="test-family-note">
            <strong>Turnaround:</strong> {FAMILY_TURNAROUND_TEXT[family]}
          </p>
          <p className="test-family-note">
            <strong>Sample condition:</strong> {SAMPLE_CONDITION_NOTES[family]}
          </p>
          {GROUPS.filter((g) => analytesOfGroup(g)[0]?.family === family).map((group) => (
            <fieldset key={group} className="test-group">
              <legend>{GROUP_SECTION_TITLES[group]}</legend>
              <ul className="test-options">
                {analytesOfGroup(group).map((a) => (
                  <TestCheckbox key={a.code} analyte={a} checked={tests.includes(a.code)} onToggle={onToggle} />
                ))}
              </ul>
              {group === 'microbio' && tests.includes(CULTURE) && (
                <div className="gram-fields">
                  <TextField
                    label="Gram Positive AST"
                    value={gramPositiveAst}
                    maxLength={500}
                    onValueChange={(v) => onGramChange('gramPositiveAst', v)}
                  />
                  <TextField
                    label="Gram Negative AST"
                    value={gramNegativeAst}
                    maxLength={500}
                    onValueChange={(v) => onGramChange('gramNegativeAst', v)}
                  />
                  <p className="field-hint">Culture and Sensitivity is charged per named AST panel (at least one).</p>
                </div>
              )}
            </fieldset>
          ))}
        </section>
      ))}
    </div>
  );
}
