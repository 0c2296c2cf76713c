/**
 * A measured value as the tester types it (number, U, k, or "< LOQ" / "not detected" instead of a
 * number), what it means as a Measurement, and the decision the shared rule makes of it before
 * anything is saved (its result text is the domain's measurementText, as the server writes it).
 */
import {
  decide,
  MAX_MEASURED,
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

/** What is wrong with the typed measurement, per field ('' when nothing): the bounds of the server's MeasurementSchema. */
export function measurementProblems(draft: MeasurementDraft): { number: string; uncertainty: string; k: string } {
  const check = (typed: string, ok: (n: number) => boolean, problem: string) => {
    const n = parse(typed);
    return n === null || (Number.isFinite(n) && ok(n)) ? '' : problem;
  };
  const amount = (n: number) => n >= 0 && n <= MAX_MEASURED;
  return {
    number: check(draft.number, amount, 'Enter the value as a number of zero or more.'),
    uncertainty: check(draft.uncertainty, amount, 'Enter U as a number of zero or more.'),
    k: check(draft.k, (n) => n > 0 && n <= 10, 'Enter k as a number above 0, at most 10.'),
  };
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

/** The decision the rule makes of the draft under `spec`, or null when there is nothing to judge. */
export function draftDecision(draft: MeasurementDraft | undefined, spec: Specification | null, rule: DecisionRule): Decision | null {
  if (!takesNumber(spec)) return null;
  const m = measurementOf(draft, spec.unit);
  return m ? decide(spec, m, rule) : null;
}
