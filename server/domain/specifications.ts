// Specifications (regulatory limits per analyte) and the decision rule that judges a measured result
// against them (issue 26; ISO/IEC 17025 7.8.6, ILAC-G8:09/2019). Pure: the server decides with it
// when a result is saved, the tester bench shows the same decision before saving.
import { z } from 'zod';
import { SPECIES_CODES } from './catalog.js';
import { isIsoDate } from './dates.js';

export type SpecKind = 'qualitative' | 'quantitative' | 'count';
export const SPEC_KINDS = ['qualitative', 'quantitative', 'count'] as const satisfies readonly SpecKind[];

export interface Specification {
  id: number;
  /** Test code of the catalogue (server/domain/catalog.ts). */
  analyte: string;
  /** 1, 2, ... per analyte and scope: a new version is a new row, never an overwrite. */
  version: number;
  /** Narrowing scope; null = any. */
  sampleCategory: string | null;
  species: string | null;
  purpose: string | null;
  kind: SpecKind;
  unit: string | null;
  lod: number | null;
  loq: number | null;
  lowerLimit: number | null;
  upperLimit: number | null;
  warningLevel: number | null;
  /** Microbiological sampling plan (Regulation 2073/2005): n units, c of them may lie between m and M. */
  n: number | null;
  c: number | null;
  m: number | null;
  M: number | null;
  /** The regulation's reference, as text. */
  source: string;
  /** In force from (YYYY-MM-DD, inclusive) to (inclusive; null = open). */
  validFrom: string;
  validTo: string | null;
  createdBy: string;
  createdAt: string;
}

/** ILAC-G8:09/2019: simple acceptance (w = 0) or guarded acceptance with the guard band w = U. */
export type DecisionRule = 'simple' | 'guarded';
export const DECISION_RULES = ['simple', 'guarded'] as const satisfies readonly DecisionRule[];
export const DECISION_RULE_TEXT: Record<DecisionRule, string> = {
  simple: 'Simple acceptance (ILAC-G8:09/2019 4.2.1): the measured value is compared with the limit, uncertainty not taken into account',
  guarded: 'Guarded acceptance (ILAC-G8:09/2019 4.2.3): guard band w = U; within U of the limit the result is inconclusive',
};

export type Qualifier = 'below_loq' | 'not_detected' | 'detected';
export const QUALIFIERS = ['below_loq', 'not_detected', 'detected'] as const satisfies readonly Qualifier[];
export const QUALIFIER_TEXT: Record<Qualifier, string> = { below_loq: '< LOQ', not_detected: 'not detected', detected: 'detected' };

export interface Measurement {
  value: number | null;
  unit: string | null;
  /** Expanded uncertainty U, in the unit of the value. */
  uncertainty: number | null;
  coverageK: number | null;
  qualifier: Qualifier | null;
}

/** Largest number a measurement may hold: a value beyond it is a typing error, not a result. */
export const MAX_MEASURED = 1e12;

const amount = (name: string) =>
  z.number(`${name} must be a number`).refine(Number.isFinite, `${name} must be a finite number`)
    .refine((x) => x >= 0 && x <= MAX_MEASURED, `${name} must be between 0 and ${MAX_MEASURED}`);

/** A measurement as the results calls accept it: a number with its unit (and U, k), or a qualifier. */
export const MeasurementSchema = z
  .strictObject({
    value: amount('value').nullable().default(null),
    unit: z.string('unit must be text').trim().max(40, 'unit must be at most 40 characters').nullable().default(null),
    uncertainty: amount('uncertainty').nullable().default(null),
    coverageK: z.number('coverageK must be a number').gt(0, 'coverageK must be above 0').max(10, 'coverageK must be at most 10').nullable().default(null),
    qualifier: z.enum(QUALIFIERS, `qualifier must be one of ${QUALIFIERS.join(', ')}`).nullable().default(null),
  })
  .refine((m) => m.value != null || m.qualifier != null, 'a measurement needs a value or a qualifier (below_loq, not_detected, detected)')
  .refine((m) => m.value == null || m.qualifier == null || m.qualifier === 'detected', 'a value cannot be < LOQ or not detected at the same time')
  .refine((m) => m.value != null || (m.uncertainty == null && m.coverageK == null), 'an uncertainty needs a value');

/** The result text a measurement stands for, where the tester typed none. */
export function measurementText(m: Measurement): string {
  if (m.value == null) return QUALIFIER_TEXT[m.qualifier ?? 'detected'];
  const value = m.unit ? `${m.value} ${m.unit}` : String(m.value);
  return m.uncertainty == null ? value : `${value} ± ${m.uncertainty}${m.coverageK == null ? '' : ` (k = ${m.coverageK})`}`;
}

export type Outcome = 'conforms' | 'does_not_conform' | 'inconclusive';
export const OUTCOMES = ['conforms', 'does_not_conform', 'inconclusive'] as const satisfies readonly Outcome[];
export const OUTCOME_TEXT: Record<Outcome, string> = { conforms: 'conforms', does_not_conform: 'does not conform', inconclusive: 'inconclusive' };

export interface Decision {
  outcome: Outcome;
  reason: string;
  specificationId: number;
  specificationVersion: number;
  rule: DecisionRule;
  /** The SPEC's + / − that follows from the decision; the tester confirms a remark that differs. */
  expectedRemark: 'positive' | 'negative';
}

/** The fields a specification is created from (the rest the server assigns). */
export type SpecificationDraft = Omit<Specification, 'id' | 'version' | 'createdBy' | 'createdAt'>;

interface Verdict { outcome: Outcome; reason: string }

const fmt = (x: number, unit: string | null) => (unit ? `${x} ${unit}` : String(x));

/**
 * Where a value lies against an upper limit with guard band w: at or below the acceptance limit
 * (L − w), above the rejection limit (L + w), or in the band between them.
 */
function againstUpper(x: number, limit: number, w: number): 'below' | 'band' | 'above' {
  if (x > limit + w) return 'above';
  if (x <= limit - w) return 'below';
  return 'band';
}

function bandWidth(rule: DecisionRule, m: Measurement): number {
  return rule === 'guarded' ? Math.abs(m.uncertainty ?? 0) : 0;
}

function withU(m: Measurement, unit: string | null): string {
  const v = fmt(m.value as number, unit);
  return m.uncertainty != null ? `${v} ± ${m.uncertainty}` : v;
}

// Words, not ≤ / ≥: the certificate's standard PDF fonts have no such glyphs.
function limitsText(lower: number | null, upper: number | null, unit: string | null): string {
  if (lower != null && upper != null) return `${lower} to ${fmt(upper, unit)}`;
  return lower != null ? `at least ${fmt(lower, unit)}` : `at most ${fmt(upper as number, unit)}`;
}

/** The requirement a specification states, as the certificate and the screens print it. */
export function requirementText(spec: Pick<Specification, 'kind' | 'unit' | 'lowerLimit' | 'upperLimit' | 'n' | 'c' | 'm' | 'M'>): string {
  if (spec.kind === 'qualitative') return `not detected${spec.unit ? ` (${spec.unit})` : ''}`;
  if (spec.kind === 'count' && spec.m != null) {
    const plan = spec.n != null ? ` (n = ${spec.n}, c = ${spec.c ?? 0})` : '';
    return spec.M != null && spec.M !== spec.m ? `m = ${spec.m}, M = ${fmt(spec.M, spec.unit)}${plan}` : `at most ${fmt(spec.m, spec.unit)}${plan}`;
  }
  if (spec.lowerLimit == null && spec.upperLimit == null) return '-';
  return limitsText(spec.lowerLimit, spec.upperLimit, spec.unit);
}

/** Judges a number (or an upper bound of it, for < LOQ / not detected) against upper and lower limits. */
function judgeLimits(spec: Specification, m: Measurement, rule: DecisionRule, upper: number | null, lower: number | null, what: string): Verdict {
  const w = bandWidth(rule, m);
  const guardNote = rule === 'guarded' && m.uncertainty == null && m.value != null ? ' (no uncertainty stated: guard band 0)' : '';
  const { value, qualifier } = m;
  if (value == null) {
    // Censored: the true value lies below `bound` (LOQ for < LOQ, LOD for not detected).
    const bound = qualifier === 'below_loq' ? spec.loq : qualifier === 'not_detected' ? (spec.lod ?? spec.loq ?? 0) : null;
    const label = qualifier ? QUALIFIER_TEXT[qualifier] : 'no value';
    if (bound == null) {
      return { outcome: 'inconclusive', reason: qualifier === 'detected' ? `detected but not quantified: cannot be compared with the ${what}` : `${label}: the specification states no LOQ to compare with` };
    }
    if (lower != null && bound <= lower) return { outcome: 'does_not_conform', reason: `${label} (< ${fmt(bound, spec.unit)}) is below the lower limit ${fmt(lower, spec.unit)}` };
    if (lower != null) return { outcome: 'inconclusive', reason: `${label} (< ${fmt(bound, spec.unit)}) cannot show the lower limit ${fmt(lower, spec.unit)} is met` };
    if (upper != null && bound <= upper) return { outcome: 'conforms', reason: `${label} (< ${fmt(bound, spec.unit)}), within the ${what} ${fmt(upper, spec.unit)}` };
    return { outcome: 'inconclusive', reason: `${label} (< ${fmt(bound, spec.unit)}) cannot show the ${what} ${fmt(upper as number, spec.unit)} is met` };
  }
  const shown = withU(m, spec.unit);
  if (upper != null) {
    const pos = againstUpper(value, upper, w);
    if (pos === 'above') return { outcome: 'does_not_conform', reason: `${shown} is above the ${what} ${fmt(upper, spec.unit)}${guardNote}` };
    if (pos === 'band') return { outcome: 'inconclusive', reason: `${shown} is within U of the ${what} ${fmt(upper, spec.unit)}` };
  }
  if (lower != null) {
    const pos = againstUpper(-value, -lower, w);
    if (pos === 'above') return { outcome: 'does_not_conform', reason: `${shown} is below the lower limit ${fmt(lower, spec.unit)}${guardNote}` };
    if (pos === 'band') return { outcome: 'inconclusive', reason: `${shown} is within U of the lower limit ${fmt(lower, spec.unit)}` };
  }
  return { outcome: 'conforms', reason: `${shown} is within the limit (${limitsText(lower, upper, spec.unit)})${guardNote}` };
}

function judgeQualitative(m: Measurement): Verdict {
  if (m.qualifier === 'detected') return { outcome: 'does_not_conform', reason: 'detected; the specification requires not detected' };
  if (m.qualifier === 'not_detected' || m.qualifier === 'below_loq') return { outcome: 'conforms', reason: `${QUALIFIER_TEXT[m.qualifier]}, as the specification requires` };
  return { outcome: 'inconclusive', reason: 'no finding (detected / not detected) given' };
}

/** A count against m and M (2073/2005): at most m satisfactory, > M unsatisfactory, between them allowed for c of n units. */
function judgeCount(spec: Specification, m: Measurement, rule: DecisionRule): Verdict {
  const small = spec.m ?? spec.upperLimit;
  const big = spec.M ?? small;
  if (small == null || big == null) return judgeLimits(spec, m, rule, null, spec.lowerLimit, 'limit');
  if (m.value == null || big === small) return judgeLimits(spec, m, rule, big, null, big === small ? 'limit m' : 'limit M');
  const w = bandWidth(rule, m);
  const shown = withU(m, spec.unit);
  const overM = againstUpper(m.value, big, w);
  if (overM === 'above') return { outcome: 'does_not_conform', reason: `${shown} is above M = ${fmt(big, spec.unit)}` };
  if (overM === 'band') return { outcome: 'inconclusive', reason: `${shown} is within U of M = ${fmt(big, spec.unit)}` };
  const overSmall = againstUpper(m.value, small, w);
  if (overSmall === 'below') return { outcome: 'conforms', reason: `${shown} is at or below m = ${fmt(small, spec.unit)}` };
  if (overSmall === 'band') return { outcome: 'inconclusive', reason: `${shown} is within U of m = ${fmt(small, spec.unit)}` };
  if ((spec.c ?? 0) === 0) return { outcome: 'does_not_conform', reason: `${shown} is above m = ${fmt(small, spec.unit)} and the plan allows no unit (c = 0) above m` };
  return { outcome: 'inconclusive', reason: `${shown} is between m and M: acceptable for at most c = ${spec.c} of n = ${spec.n ?? '?'} units` };
}

function verdict(spec: Specification, m: Measurement, rule: DecisionRule): Verdict {
  if (m.value != null && spec.unit != null && m.unit != null && m.unit !== spec.unit) {
    return { outcome: 'inconclusive', reason: `unit ${m.unit} differs from the specification's ${spec.unit}` };
  }
  if (spec.kind === 'qualitative') return judgeQualitative(m);
  if (spec.kind === 'count') return judgeCount(spec, m, rule);
  return judgeLimits(spec, m, rule, spec.upperLimit, spec.lowerLimit, 'limit');
}

/** Judges a measurement against a specification under the laboratory's decision rule. */
export function decide(spec: Specification, m: Measurement, rule: DecisionRule): Decision {
  const { outcome, reason } = verdict(spec, m, rule);
  // The + / − reads the finding itself: detected, or beyond the limit by the bare value.
  const finding = m.qualifier === 'detected' || verdict(spec, m, 'simple').outcome === 'does_not_conform';
  return { outcome, reason, specificationId: spec.id, specificationVersion: spec.version, rule, expectedRemark: finding ? 'positive' : 'negative' };
}

/** The measurement a SPEC + / − entry stands for when no measurement was given (qualitative specs). */
export function measurementFromRemark(remark: 'positive' | 'negative'): Measurement {
  return { value: null, unit: null, uncertainty: null, coverageK: null, qualifier: remark === 'positive' ? 'detected' : 'not_detected' };
}

/** A stored result as re-evaluation reads it: its text value, its + / − and its measurement (if any). */
export interface StoredResult {
  value: string | null;
  remark: 'positive' | 'negative' | null;
  measurement: Measurement | null;
}

/**
 * The decision a stored result gets against `spec` under `rule` (re-evaluation, issue 26): its
 * measurement, or for a qualitative specification its + / −; null without a value, a specification
 * or anything to judge. The server stores it; the portal previews it before staff sign.
 */
export function judgeStored(spec: Specification | null, result: StoredResult, rule: DecisionRule): Decision | null {
  if (!spec || result.value === null) return null;
  const judged = result.measurement ?? (spec.kind === 'qualitative' && result.remark ? measurementFromRemark(result.remark) : null);
  return judged ? decide(spec, judged, rule) : null;
}

const DECISION_FIELDS = ['outcome', 'reason', 'specificationId', 'specificationVersion', 'rule', 'expectedRemark'] as const satisfies readonly (keyof Decision)[];

/** Whether two decisions are one: the same outcome and reason, under the same specification version and rule. */
export function sameDecision(a: Decision | null, b: Decision | null): boolean {
  if (!a || !b) return a === b;
  return DECISION_FIELDS.every((f) => a[f] === b[f]);
}

export interface SpecScope { analyte: string; sampleCategory: string | null; species: string | null; purpose: string | null }

const SCOPE_FIELDS = ['sampleCategory', 'species', 'purpose'] as const;

/** Same analyte and the same narrowing scope: the versions of one specification. */
export function sameScope(a: SpecScope, b: SpecScope): boolean {
  return a.analyte === b.analyte && SCOPE_FIELDS.every((f) => (a[f] ?? null) === (b[f] ?? null));
}

export function inForce(spec: Pick<Specification, 'validFrom' | 'validTo'>, on: string): boolean {
  return spec.validFrom <= on && (spec.validTo == null || on <= spec.validTo);
}

/** Do two date ranges (inclusive, null end = open) share a day? */
export function rangesOverlap(a: Pick<Specification, 'validFrom' | 'validTo'>, b: Pick<Specification, 'validFrom' | 'validTo'>): boolean {
  return (a.validTo == null || b.validFrom <= a.validTo) && (b.validTo == null || a.validFrom <= b.validTo);
}

const specificity = (s: Specification) => SCOPE_FIELDS.filter((f) => s[f] != null).length;

/**
 * The specification that applies to an analysis on a date: in force that day, its scope matching
 * (null matches anything), the most specific scope first, then the newest version.
 */
export function applicableSpecification(
  specs: Specification[],
  scope: SpecScope & { on: string },
): Specification | null {
  let best: Specification | null = null;
  for (const s of specs) {
    if (s.analyte !== scope.analyte || !inForce(s, scope.on)) continue;
    if (!SCOPE_FIELDS.every((f) => s[f] == null || s[f] === scope[f])) continue;
    if (!best || specificity(s) > specificity(best) || (specificity(s) === specificity(best) && s.version > best.version)) best = s;
  }
  return best;
}

/** Per analyte and scope, the version in force on the date (the "current" list). */
export function currentVersions(specs: Specification[], on: string): Specification[] {
  const newest = new Map<string, Specification>();
  for (const s of specs) {
    if (!inForce(s, on)) continue;
    const key = JSON.stringify([s.analyte, s.sampleCategory, s.species, s.purpose]);
    const seen = newest.get(key);
    if (!seen || s.version > seen.version) newest.set(key, s);
  }
  return [...newest.values()];
}

const SEVERITY: Record<Outcome, number> = { conforms: 0, inconclusive: 1, does_not_conform: 2 };

/** A sample's or request's summary: the worst outcome wins; null when nothing was judged. */
export function summarize(outcomes: (Outcome | null)[]): Outcome | null {
  let worst: Outcome | null = null;
  for (const o of outcomes) if (o && (worst == null || SEVERITY[o] > SEVERITY[worst])) worst = o;
  return worst;
}

const isoDate = (name: string) => z.string(`${name} must be a date written YYYY-MM-DD`).refine(isIsoDate, `${name} must be a date written YYYY-MM-DD`);
const scopeText = (name: string) => z.string(`${name} must be text`).trim().min(1, `${name} must not be empty (null: any)`).max(40, `${name} must be at most 40 characters`).nullable().default(null);
const optionalAmount = (name: string) => amount(name).nullable().default(null);
const count = (name: string) => z.number(`${name} must be a number`).int(`${name} must be a whole number`).min(0, `${name} must be 0 or more`).max(1000, `${name} must be at most 1000`).nullable().default(null);

/** A new specification as the API, the portal and `labctl specs import` send it (the server checks specificationProblems too). */
export const SpecificationDraftSchema = z.strictObject({
  analyte: z.string('analyte must be a test code').trim().min(1, 'analyte must be a test code').max(40, 'analyte must be a test code'),
  sampleCategory: scopeText('sampleCategory'),
  // A species of origin of the catalogue (issue 26): the specification then applies to the samples of that species.
  species: z.string('species must be text').trim()
    .pipe(z.enum(SPECIES_CODES, `species must be one of ${SPECIES_CODES.join(', ')} (null: any)`))
    .nullable().default(null),
  purpose: scopeText('purpose'),
  kind: z.enum(SPEC_KINDS, `kind must be one of ${SPEC_KINDS.join(', ')}`),
  unit: z.string('unit must be text').trim().min(1, 'unit must not be empty (null: none)').max(40, 'unit must be at most 40 characters').nullable().default(null),
  lod: optionalAmount('lod'),
  loq: optionalAmount('loq'),
  lowerLimit: optionalAmount('lowerLimit'),
  upperLimit: optionalAmount('upperLimit'),
  warningLevel: optionalAmount('warningLevel'),
  n: count('n'),
  c: count('c'),
  m: optionalAmount('m'),
  M: optionalAmount('M'),
  source: z.string('source must be text').trim().min(3, 'source must name the regulation or document').max(500, 'source must be at most 500 characters'),
  validFrom: isoDate('validFrom'),
  validTo: isoDate('validTo').nullable().default(null),
});

/** Problems with a specification's own numbers (limit below LOQ, LOQ below LOD, m above M, ...). */
export function specificationProblems(s: SpecificationDraft): string[] {
  const problems: string[] = [];
  const limits: [string, number | null][] = [['lowerLimit', s.lowerLimit], ['upperLimit', s.upperLimit], ['m', s.m], ['M', s.M]];
  if (s.lod != null && s.loq != null && s.loq < s.lod) problems.push(`loq ${s.loq} is below lod ${s.lod}`);
  for (const [name, v] of limits) {
    if (v != null && s.loq != null && v < s.loq) problems.push(`${name} ${v} is below the LOQ ${s.loq}: a result at the limit could not be quantified`);
  }
  if (s.lowerLimit != null && s.upperLimit != null && s.lowerLimit > s.upperLimit) problems.push(`lowerLimit ${s.lowerLimit} is above upperLimit ${s.upperLimit}`);
  if (s.m != null && s.M != null && s.m > s.M) problems.push(`m ${s.m} is above M ${s.M}`);
  if (s.kind === 'quantitative' && s.lowerLimit == null && s.upperLimit == null) problems.push('a quantitative specification needs a lowerLimit or an upperLimit');
  if (s.kind === 'count' && s.m == null && s.upperLimit == null) problems.push('a count specification needs m (or an upperLimit)');
  if (s.kind !== 'qualitative' && !s.unit) problems.push(`a ${s.kind} specification needs a unit`);
  if (s.validTo != null && s.validTo < s.validFrom) problems.push(`validTo ${s.validTo} is before validFrom ${s.validFrom}`);
  return problems;
}
