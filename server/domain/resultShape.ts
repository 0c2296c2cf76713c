// The wide result shapes of the results calls (SPEC section 7, DESIGN.md section 6) as views of the
// normalized `analyses` rows, and back. Pure: the server presents and parses with it, the tester
// screens read the same names.
import { z } from 'zod';
import { analytesOfGroup, catalogOrder, findAnalyte, GROUPS, type Group } from './catalog.js';
import { isIsoDate } from './dates.js';
import type { Receipt } from './reception.js';
import type { RequestListRow } from './requestShape.js';
import { isAnalysisComplete } from './requestStatus.js';
import { isWellFormedText, refuseInvalidCharacters } from './wellFormedText.js';
import { MeasurementSchema, type Decision, type Measurement } from './specifications.js';

export type Remark = 'positive' | 'negative';

/** One analysis as the results services read it. */
export interface AnalysisRecord {
  requestId: number;
  sampleId: number;
  /** Position of the sample in its request (1..n). */
  samplePosition: number;
  testCode: string;
  group: Group;
  value: string | null;
  remark: Remark | null;
  analysisDate: string | null;
  /** The measured value and the decision against the specification (issue 26), when there are. */
  measurement?: Measurement | null;
  decision?: Decision | null;
}

/**
 * One sample's results of one group: `{sampleId, result: {requestId}, <analyte>, <analyte>Remarks,
 * <analyte>AnalysisDate, ...}` with every analyte of the group (null when not ticked or not entered).
 */
export type WideResult = {
  sampleId: number;
  result: { requestId: number };
} & Record<string, string | number | null | { requestId: number } | Measurement | Decision>;

/** The combined result of one request (SPEC section 3 "Combined result"). */
export interface CombinedResult {
  requestId: number;
  microbioTestResults: WideResult[];
  chemElisaTestResults: WideResult[];
  chemMicrobialTestResults: WideResult[];
  molBioTestResults: WideResult[];
  completeMicrobio: boolean;
  completeChemElisa: boolean;
  completeChemMicrobial: boolean;
  completeMolBio: boolean;
}

/** A sample as the tester lists show it: with the sample information of its request. */
export interface TesterSample {
  sampleId: number;
  position: number;
  sampleTypeDescription: string;
  /** Issue 26: the sample's species of origin (a species code); null: not stated. */
  species: string | null;
  lotBatchNo: string | null;
  samplerName: string | null;
  sampleSource: string | null;
  productionDate: string | null;
  expiryDate: string | null;
  samplingDate: string | null;
}

/** An item of GET requests/for-testing: the request's summary, its ticked tests (catalog order) and its samples. */
/** A request awaiting results, with its samples and how they arrived (null until received). */
export type ForTestingRequest = RequestListRow & { tests: string[]; samples: TesterSample[]; receipt: Receipt | null };

/** Per group: the list in the combined result, its completion flag, and the paths of its calls. */
export const GROUP_WIRE: Record<Group, {
  list: 'microbioTestResults' | 'chemElisaTestResults' | 'chemMicrobialTestResults' | 'molBioTestResults';
  complete: 'completeMicrobio' | 'completeChemElisa' | 'completeChemMicrobial' | 'completeMolBio';
  /** GET of the per-sample list. */
  readPath: string;
  /** PUT .../{sampleId}. */
  writePath: string;
}> = {
  microbio: { list: 'microbioTestResults', complete: 'completeMicrobio', readPath: '/microbioTestResults', writePath: '/microbioTestResults' },
  chemElisa: { list: 'chemElisaTestResults', complete: 'completeChemElisa', readPath: '/chemElisaTestResults', writePath: '/chemTestElisaResults' },
  chemMicrobial: { list: 'chemMicrobialTestResults', complete: 'completeChemMicrobial', readPath: '/chemMicrobialTestResults', writePath: '/chemMicrobialTestResults' },
  molBio: { list: 'molBioTestResults', complete: 'completeMolBio', readPath: '/molBioTestResults', writePath: '/molBioTestResults' },
};

export const remarksKey = (code: string) => `${code}Remarks`;
export const analysisDateKey = (code: string) => `${code}AnalysisDate`;
/** Issue 26, additive: `<analyte>Measurement` (PUT and GET), `<analyte>Decision` (GET), `<analyte>RemarkConfirmed` (PUT). */
export const measurementKey = (code: string) => `${code}Measurement`;
export const decisionKey = (code: string) => `${code}Decision`;
export const remarkConfirmedKey = (code: string) => `${code}RemarkConfirmed`;

/** One analyte's result as stored: what a screen shows for it. */
export type AnalyteResult = Pick<AnalysisRecord, 'value' | 'remark' | 'analysisDate'>;

/** Reads one analyte's three fields back from a wide item; a blank or missing field reads as null. */
export function resultOf(item: WideResult, code: string): AnalyteResult {
  const text = (field: unknown) => (typeof field === 'string' && field.trim() !== '' ? field : null);
  const remark = item[remarksKey(code)];
  return {
    value: text(item[code]),
    remark: remark === 'positive' || remark === 'negative' ? remark : null,
    analysisDate: text(item[analysisDateKey(code)]),
  };
}

/** One analyte's result with its test code: a row of a results table. */
export type TestResult = AnalyteResult & { testCode: string };

/** The rows one wide item shows: the request's ticked tests of its group, and any other analyte with a value. */
export function testResultsOf(group: Group, item: WideResult, tests: readonly string[]): TestResult[] {
  return analytesOfGroup(group)
    .map((a) => ({ testCode: a.code, ...resultOf(item, a.code) }))
    .filter((r) => tests.includes(r.testCode) || r.value !== null);
}

/** A combined result as rows per sample id, each sample's rows in catalog order (the desk's For Release table). */
export function testResultsBySample(combined: CombinedResult, tests: readonly string[]): Map<number, TestResult[]> {
  const bySample = new Map<number, TestResult[]>();
  for (const group of GROUPS) {
    for (const item of combined[GROUP_WIRE[group].list]) {
      bySample.set(item.sampleId, [...(bySample.get(item.sampleId) ?? []), ...testResultsOf(group, item, tests)]);
    }
  }
  for (const rows of bySample.values()) rows.sort((a, b) => catalogOrder(a.testCode) - catalogOrder(b.testCode));
  return bySample;
}

/** Wide per-sample items of one group, in request then sample order; samples without analyses of the group are left out. */
export function toWideResults(group: Group, analyses: readonly AnalysisRecord[]): WideResult[] {
  const ofGroup = analyses
    .filter((a) => a.group === group)
    .sort((a, b) => a.requestId - b.requestId || a.samplePosition - b.samplePosition);
  const bySample = new Map<number, WideResult>();
  for (const a of ofGroup) {
    let item = bySample.get(a.sampleId);
    if (!item) {
      item = { sampleId: a.sampleId, result: { requestId: a.requestId } } as WideResult;
      for (const analyte of analytesOfGroup(group)) {
        item[analyte.code] = null;
        item[remarksKey(analyte.code)] = null;
        item[analysisDateKey(analyte.code)] = null;
      }
      bySample.set(a.sampleId, item);
    }
    item[a.testCode] = a.value;
    item[remarksKey(a.testCode)] = a.remark;
    item[analysisDateKey(a.testCode)] = a.analysisDate;
    // Issue 26's fields, for the analyses the request has (the SPEC's fields keep their shape).
    item[measurementKey(a.testCode)] = a.measurement ?? null;
    item[decisionKey(a.testCode)] = a.decision ?? null;
  }
  return [...bySample.values()];
}

/** A group is complete when the request has analyses in it and every one has a value and a remark. */
export function isGroupComplete(group: Group, analyses: readonly AnalysisRecord[]): boolean {
  const ofGroup = analyses.filter((a) => a.group === group);
  return ofGroup.length > 0 && ofGroup.every(isAnalysisComplete);
}

/** The combined result of one request from all its analyses. */
export function toCombinedResult(requestId: number, analyses: readonly AnalysisRecord[]): CombinedResult {
  const combined = { requestId } as CombinedResult;
  for (const group of GROUPS) {
    combined[GROUP_WIRE[group].list] = toWideResults(group, analyses);
    combined[GROUP_WIRE[group].complete] = isGroupComplete(group, analyses);
  }
  return combined;
}

/** The result groups of a request's ticked tests, in catalog order. */
export function groupsOfTests(tests: readonly string[]): Group[] {
  return GROUPS.filter((g) => tests.some((code) => findAnalyte(code)?.group === g));
}

/** The combined result with the lists of groups outside `groups` emptied (a tester reads its own discipline only). */
export function limitToGroups(combined: CombinedResult, groups: readonly Group[]): CombinedResult {
  const limited = { ...combined };
  for (const group of GROUPS) if (!groups.includes(group)) limited[GROUP_WIRE[group].list] = [];
  return limited;
}

export const MAX_RESULT_LENGTH = 500;

/** An ISO calendar date that exists (2026-02-30 does not). */
export const IsoDate = z.string().refine(isIsoDate, 'must be a date written YYYY-MM-DD');

/** The three fields of one analyte result, as the API, the screens and CSV imports send them. */
export const ResultFields = z.object({
  /** Free text, stored as typed; empty (or only spaces) clears the result. */
  value: z
    .string()
    .max(MAX_RESULT_LENGTH, `must be at most ${MAX_RESULT_LENGTH} characters`)
    .superRefine(refuseInvalidCharacters)
    .nullable(),
  /** '' (or null) means no remark. */
  remark: z.enum(['', 'positive', 'negative'], { error: "must be '', 'positive' or 'negative'" }).nullable(),
  analysisDate: z.union([IsoDate, z.literal('')]).nullable(),
});
export type ResultFieldsInput = z.input<typeof ResultFields>;

const REMARKS: ReadonlySet<unknown> = new Set([null, '', 'positive', 'negative']);

/**
 * ResultFields.safeParse, answering the same: fields that pass are checked here without zod (bulk
 * imports check a hundred thousand rows), anything else goes to the schema for its exact issues.
 */
export function parseResultFields(input: { value?: unknown; remark?: unknown; analysisDate?: unknown }): z.ZodSafeParseResult<z.output<typeof ResultFields>> {
  const { value, remark, analysisDate } = input;
  if (
    (value === null || (typeof value === 'string' && value.length <= MAX_RESULT_LENGTH && isWellFormedText(value))) &&
    REMARKS.has(remark) &&
    (analysisDate === null || analysisDate === '' || (typeof analysisDate === 'string' && isIsoDate(analysisDate)))
  ) {
    return { success: true, data: { value, remark: remark as '' | Remark | null, analysisDate } };
  }
  return ResultFields.safeParse(input);
}

/** What an analysis holds after a write of `fields`: an empty value clears the whole result. */
export function normalizeResult(fields: z.output<typeof ResultFields>): { value: string | null; remark: Remark | null; analysisDate: string | null } {
  if (fields.value === null || fields.value.trim() === '') return { value: null, remark: null, analysisDate: null };
  return {
    value: fields.value,
    remark: fields.remark === '' || fields.remark === null ? null : fields.remark,
    analysisDate: fields.analysisDate === '' ? null : fields.analysisDate,
  };
}

export interface WideEntry {
  testCode: string;
  value: string | null;
  remark: '' | Remark | null;
  analysisDate: string | null;
  /** Issue 26: absent leaves the stored measurement, null clears it. */
  measurement?: Measurement | null;
  /** The tester confirms a remark that differs from the decision's. */
  remarkConfirmed?: boolean;
}

/**
 * Parses a PUT payload of one group: `{<analyte>, <analyte>Remarks, <analyte>AnalysisDate, ...}`.
 * An analyte is written when its value key is present (a missing remark means none, a missing date
 * null); analytes absent from the payload are left alone. Every problem is listed in one message,
 * naming the analyte: fields of other groups, unknown fields, remarks or dates without a value.
 */
export function parseWidePayload(group: Group, payload: unknown): { ok: true; entries: WideEntry[] } | { ok: false; problems: string[] } {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    return { ok: false, problems: ['The results must be a JSON object of analyte fields.'] };
  }
  const body = payload as Record<string, unknown>;
  const sent = (key: string) => Object.hasOwn(body, key);
  const codes = analytesOfGroup(group).map((a) => a.code);
  // A Set: an analyte's three fields report one problem, not three.
  const problems = new Set<string>();
  const entries: WideEntry[] = [];

  for (const key of Object.keys(body)) {
    // Keys the wide shape itself carries are accepted and ignored, so a GET item can be sent back.
    if (key === 'sampleId' || key === 'result') continue;
    const code = key.replace(/(AnalysisDate|Remarks|Measurement|Decision|RemarkConfirmed)$/, '');
    if (!codes.includes(code)) {
      problems.add(findAnalyte(code) ? `${code} is not a ${GROUP_NAMES[group]} test` : `${key} is not a result field`);
    } else if (!sent(code) && !sent(measurementKey(code)) && key !== decisionKey(code)) {
      problems.add(`${code}: remark or analysis date sent without a value`);
    }
  }
  for (const code of codes.filter((c) => sent(c) || sent(measurementKey(c)))) {
    const measurement = sent(measurementKey(code)) ? MeasurementSchema.nullable().safeParse(body[measurementKey(code)]) : null;
    // A measurement alone is a result (its text is written for it); clearing one alone would clear the result.
    if (!sent(code) && measurement?.success && measurement.data === null) problems.add(`${measurementKey(code)}: null clears a measurement only with the value ${code}`);
    if (measurement && !measurement.success) {
      for (const issue of measurement.error.issues) problems.add(`${measurementKey(code)}: ${issue.message}`);
    }
    const confirmed = body[remarkConfirmedKey(code)];
    if (confirmed !== undefined && typeof confirmed !== 'boolean') problems.add(`${remarkConfirmedKey(code)}: must be true or false`);
    const parsed = ResultFields.safeParse({
      value: body[code] ?? null,
      remark: body[remarksKey(code)] ?? '',
      analysisDate: body[analysisDateKey(code)] ?? null,
    });
    if (parsed.success) {
      entries.push({
        testCode: code,
        ...parsed.data,
        ...(measurement?.success ? { measurement: measurement.data } : {}),
        ...(confirmed === true ? { remarkConfirmed: true } : {}),
      });
      continue;
    }
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] === 'value' ? code : issue.path[0] === 'remark' ? remarksKey(code) : analysisDateKey(code);
      problems.add(`${field}: ${issue.message}`);
    }
  }
  return problems.size ? { ok: false, problems: [...problems] } : { ok: true, entries };
}

/** How messages name a group. */
export const GROUP_NAMES: Record<Group, string> = {
  microbio: 'microbiology',
  chemElisa: 'chemistry ELISA',
  chemMicrobial: 'chemistry microbial inhibition',
  molBio: 'molecular biology',
};

/** 'standardPlateCount' -> 'Standard Plate Count', 'beta_agonists' -> 'Beta Agonists'. */
export function humanizeFieldName(name: string): string {
  return name
    .replace(/_/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(' ')
    .filter((w) => w !== '')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');
}

/**
 * The fields the Test Results screens list for one result item (SPEC section 2): non-null, non-empty
 * plain values, leaving out names containing Date, Id or sample, labelled in spaced capitalised words.
 */
export function displayedResultFields(item: Record<string, unknown>): Array<{ name: string; label: string; value: string }> {
  const fields: Array<{ name: string; label: string; value: string }> = [];
  for (const [name, value] of Object.entries(item)) {
    if (/Date|Id|sample/.test(name)) continue;
    if (value === null || value === undefined || value === '' || typeof value === 'object') continue;
    fields.push({ name, label: humanizeFieldName(name), value: String(value) });
  }
  return fields;
}
