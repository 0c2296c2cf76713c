/**
 * The staff form of a specification: its fields as typed, what is wrong with them (every problem at
 * once, each beside its field), and the body the server receives. The server checks the same again
 * (and what only it knows: overlapping dates in the same scope), answering a 4xx the form shows.
 */
import type { SpecKind, Specification } from '../../../server/domain/specifications.js';
import type { SpecificationInput } from '../../api/specifications.js';

export const NUMBER_FIELDS = ['lod', 'loq', 'lowerLimit', 'upperLimit', 'warningLevel', 'n', 'c', 'm', 'M'] as const;
export type NumberField = (typeof NUMBER_FIELDS)[number];

export interface SpecForm extends Record<NumberField, string> {
  analyte: string;
  sampleCategory: string;
  species: string;
  purpose: string;
  kind: SpecKind | '';
  unit: string;
  source: string;
  validFrom: string;
  validTo: string;
}

export type SpecFormField = keyof SpecForm;
export type SpecFormProblems = Partial<Record<SpecFormField, string>>;

/** Which number fields each kind uses; the others are left empty and sent as null. */
export const KIND_FIELDS: Record<SpecKind, readonly NumberField[]> = {
  qualitative: ['lod'],
  quantitative: ['lod', 'loq', 'lowerLimit', 'upperLimit', 'warningLevel'],
  count: ['lod', 'loq', 'upperLimit', 'warningLevel', 'n', 'c', 'm', 'M'],
};

export const KIND_LABELS: Record<SpecKind, string> = {
  qualitative: 'Qualitative (detected / not detected)',
  quantitative: 'Quantitative (a limit or a range)',
  count: 'Microbiological count (cfu/g, n/c/m/M)',
};

export const FIELD_LABELS: Record<NumberField, string> = {
  lod: 'LOD (limit of detection)',
  loq: 'LOQ (limit of quantification)',
  lowerLimit: 'Lower limit',
  upperLimit: 'Upper limit',
  warningLevel: 'Warning level',
  n: 'n (sample units)',
  c: 'c (units allowed between m and M)',
  m: 'm',
  M: 'M',
};

const text = (value: number | null) => (value === null ? '' : String(value));

/** An empty form (valid from today), or one prefilled from `spec` for its next version. */
export function specFormOf(spec: Specification | null, today: string): SpecForm {
  return {
    analyte: spec?.analyte ?? '',
    sampleCategory: spec?.sampleCategory ?? '',
    species: spec?.species ?? '',
    purpose: spec?.purpose ?? '',
    kind: spec?.kind ?? '',
    unit: spec?.unit ?? '',
    source: spec?.source ?? '',
    validFrom: today,
    validTo: '',
    ...(Object.fromEntries(NUMBER_FIELDS.map((f) => [f, text(spec ? spec[f] : null)])) as Record<NumberField, string>),
  };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const INTEGER_FIELDS: ReadonlySet<NumberField> = new Set(['n', 'c']);

/** The number typed in `field`, null when empty, NaN when it is not a number. */
function numberOf(form: SpecForm, field: NumberField): number | null {
  const typed = form[field].trim();
  return typed === '' ? null : Number(typed);
}

/** Every problem of the form, keyed by field; empty when it may be sent. */
export function specFormProblems(form: SpecForm): SpecFormProblems {
  const problems: SpecFormProblems = {};
  if (form.analyte === '') problems.analyte = 'Choose the analyte.';
  if (form.kind === '') problems.kind = 'Choose the kind of specification.';
  if (form.source.trim() === '') problems.source = 'Name the source, e.g. the regulation and its annex.';
  if (!DATE.test(form.validFrom)) problems.validFrom = 'Enter the date the specification is in force from.';
  if (form.validTo !== '' && !DATE.test(form.validTo)) problems.validTo = 'Enter a date, or leave it empty.';
  else if (form.validTo !== '' && DATE.test(form.validFrom) && form.validTo < form.validFrom) problems.validTo = 'The end date must not be before the start date.';
  if (form.kind === '') return problems;

  const used = KIND_FIELDS[form.kind];
  const value: Partial<Record<NumberField, number | null>> = {};
  for (const field of used) {
    const n = numberOf(form, field);
    if (n !== null && (!Number.isFinite(n) || n < 0)) problems[field] = 'Enter a number of zero or more.';
    else if (n !== null && INTEGER_FIELDS.has(field) && !Number.isInteger(n)) problems[field] = 'Enter a whole number.';
    else value[field] = n;
  }
  const { lod, loq, lowerLimit, upperLimit, warningLevel, n, c, m, M } = value;
  if (form.kind !== 'qualitative' && form.unit.trim() === '') problems.unit = 'Enter the unit the values are reported in, e.g. µg/kg.';
  if (lod != null && loq != null && loq < lod) problems.loq = 'The LOQ must not be below the LOD.';

  if (form.kind === 'quantitative') {
    if (lowerLimit === null && upperLimit === null && !problems.lowerLimit && !problems.upperLimit) problems.upperLimit = 'Enter an upper limit, a lower limit or both.';
    if (lowerLimit != null && upperLimit != null && upperLimit < lowerLimit) problems.upperLimit = 'The upper limit must not be below the lower limit.';
  }
  if (form.kind === 'count') {
    if (upperLimit === null && m === null && !problems.upperLimit && !problems.m) problems.upperLimit = 'Enter an upper limit, or m (with n, c and M).';
    if (m != null && M != null && M < m) problems.M = 'M must not be below m.';
    if (c != null && n === null && !problems.n) problems.n = 'Enter n when c is given.';
    if (c != null && n != null && c > n) problems.c = 'c must not be more than n.';
  }
  for (const field of ['lowerLimit', 'upperLimit', 'm'] as const) {
    const limit = value[field];
    if (limit != null && loq != null && limit < loq && !problems[field]) problems[field] = 'The limit must not be below the LOQ.';
  }
  if (warningLevel != null && upperLimit != null && warningLevel > upperLimit && !problems.warningLevel) problems.warningLevel = 'The warning level must not be above the upper limit.';
  return problems;
}

/** The body of POST /specifications for a form without problems. */
export function specInputOf(form: SpecForm, supersedes: number | null): SpecificationInput {
  const kind = form.kind as SpecKind;
  const used = new Set<NumberField>(KIND_FIELDS[kind]);
  const numbers = Object.fromEntries(NUMBER_FIELDS.map((f) => [f, used.has(f) ? numberOf(form, f) : null])) as Record<NumberField, number | null>;
  const orNull = (s: string) => (s.trim() === '' ? null : s.trim());
  return {
    analyte: form.analyte,
    sampleCategory: orNull(form.sampleCategory),
    species: orNull(form.species),
    purpose: orNull(form.purpose),
    kind,
    unit: kind === 'qualitative' ? orNull(form.unit) : form.unit.trim(),
    ...numbers,
    source: form.source.trim(),
    validFrom: form.validFrom,
    validTo: orNull(form.validTo),
    ...(supersedes === null ? {} : { supersedes }),
  };
}
