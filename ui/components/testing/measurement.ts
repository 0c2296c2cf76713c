/**
 * A measured value as the tester types it (number, U, k, or "< LOQ" / "not detected" instead of a
 * number), what it means as a Measurement, the text the SPEC's result field carries for it, and
 * the decision the shared rule makes of it before anything is saved.
 */
import {
  decide,
  QUALIFIER_TEXT,
  type Decision,
  type DecisionRule,
  type Measurement,
  type Qualifier,
  type Specification,
} from '../../../server/domain/specifications.js';

/** The qualifiers a tester picks instead of a number ("detected" is the qualitative + ). */
export type EnteredQualifier = Extract<Qualifier, 'below_loq' | 'not_detected'>;
export const ENTERED_QUALIFIERS: readonly EnteredQualifier[] = ['below_loq', 'not_detected'];

export interface MeasurementDraft {
  /** The number as typed ('' when none or when a qualifier stands for it). */
  number: string;
  uncertainty: string;
  k: string;
  qualifier: '' | EnteredQualifier;
}

export const EMPTY_MEASUREMENT: MeasurementDraft = { number: '', uncertainty: '', k: '', qualifier: '' };

/** A specification a number is entered for: quantitative or a count. */
export const takesNumber = (spec: Specification | null): spec is Specification => spec !== null && spec.kind !== 'qualitative';

const parse = (typed: string): number | null => {
  const t = typed.trim().replace(',', '.');
  return t === '' ? null : Number(t);
};

/** What is wrong with the typed measurement, per field ('' when nothing). */
export function measurementProblems(draft: MeasurementDraft): { number: string; uncertainty: string; k: string } {
  const check = (typed: string, what: string) => {
    const n = parse(typed);
    if (n === null) return '';
    return Number.isFinite(n) && n >= 0 ? '' : `Enter the ${what} as a number of zero or more.`;
  };
  return { number: check(draft.number, 'value'), uncertainty: check(draft.uncertainty, 'uncertainty U'), k: check(draft.k, 'coverage factor k') };
}

export const isEmptyMeasurement = (d: MeasurementDraft | undefined) => !d || (d.number.trim() === '' && d.qualifier === '' && d.uncertainty.trim() === '' && d.k.trim() === '');

/** The Measurement the draft stands for, in the specification's unit; null when nothing (valid) is entered. */
export function measurementOf(draft: MeasurementDraft | undefined, unit: string | null): Measurement | null {
  if (!draft || isEmptyMeasurement(draft)) return null;
  const problems = measurementProblems(draft);
  if (problems.number || problems.uncertainty || problems.k) return null;
  const value = draft.qualifier ? null : parse(draft.number);
  if (value === null && !draft.qualifier) return null;
  return { value, unit, uncertainty: value === null ? null : parse(draft.uncertainty), coverageK: value === null ? null : parse(draft.k), qualifier: draft.qualifier || null };
}

/** The draft of a stored measurement. */
export function measurementDraftOf(m: Measurement | null | undefined): MeasurementDraft | undefined {
  if (!m) return undefined;
  const text = (n: number | null) => (n === null ? '' : String(n));
  const qualifier = m.qualifier === 'below_loq' || m.qualifier === 'not_detected' ? m.qualifier : '';
  return { number: text(m.value), uncertainty: text(m.uncertainty), k: text(m.coverageK), qualifier };
}

/** The SPEC result text of a measurement: "150 µg/kg (U = 12, k = 2)", "< LOQ", "not detected". */
export function measurementText(m: Measurement): string {
  if (m.value === null) return m.qualifier ? QUALIFIER_TEXT[m.qualifier] : '';
  const value = m.unit ? `${m.value} ${m.unit}` : String(m.value);
  const u = [m.uncertainty !== null && `U = ${m.uncertainty}`, m.coverageK !== null && `k = ${m.coverageK}`].filter(Boolean).join(', ');
  return u ? `${value} (${u})` : value;
}

/** The decision the rule makes of the draft under `spec`, or null when there is nothing to judge. */
export function draftDecision(draft: MeasurementDraft | undefined, spec: Specification | null, rule: DecisionRule): Decision | null {
  if (!takesNumber(spec)) return null;
  const m = measurementOf(draft, spec.unit);
  return m ? decide(spec, m, rule) : null;
}
