/**
 * What the tester has typed, per sample and analyte, and how it becomes the entries of one batch
 * save: only rows that differ from what is stored are sent, a missing remark as '', a missing date
 * as null, an emptied value as '' (which clears the stored result). Where the analyte's
 * specification takes a number, the draft also holds the measurement (issue 26), sent with its entry.
 */
import { analytesOfGroup, DISCIPLINE_GROUPS, type Group } from '../../../server/domain/catalog.js';
import { measurementKey, resultOf, type AnalysisRecord, type Remark, type WideResult } from '../../../server/domain/resultShape.js';
import type { Discipline } from '../../../server/domain/roles.js';
import type { Measurement } from '../../../server/domain/specifications.js';
import type { ResultEntry } from '../../api/queues.js';
import { EMPTY_MEASUREMENT, measurementDraftOf, measurementOf, type MeasurementDraft } from './measurement.js';

export interface ResultDraft {
  value: string;
  remark: '' | Remark;
  /** YYYY-MM-DD, or '' when unset. */
  analysisDate: string;
  /** The measured value, where the specification takes a number; absent when none was entered. */
  measurement?: MeasurementDraft;
  /** The tester confirmed a + / − that differs from the decision. */
  confirmed?: boolean;
}

export type Drafts = Readonly<Record<string, ResultDraft>>;

export const EMPTY_DRAFT: ResultDraft = { value: '', remark: '', analysisDate: '' };

export const draftKey = (sampleId: number, code: string) => `${sampleId}:${code}`;

const stored = (value: string, remark: Remark | null, analysisDate: string | null, measurement: Measurement | null | undefined): ResultDraft => {
  const m = measurementDraftOf(measurement);
  return { value, remark: remark ?? '', analysisDate: analysisDate ?? '', ...(m ? { measurement: m } : {}) };
};

/** Drafts prefilled from what is stored (the per-group lists). */
export function draftsFromResults(lists: readonly WideResult[][]): Record<string, ResultDraft> {
  const drafts: Record<string, ResultDraft> = {};
  for (const item of lists.flat()) {
    for (const key of Object.keys(item)) {
      if (key.endsWith('Remarks') || key.endsWith('AnalysisDate')) continue;
      const { value, remark, analysisDate } = resultOf(item, key);
      if (value !== null) drafts[draftKey(item.sampleId, key)] = stored(value, remark, analysisDate, item[measurementKey(key)] as Measurement | null | undefined);
    }
  }
  return drafts;
}

/** The groups of `discipline` the request has tests in, with those ticked analytes. */
export function groupsToTest(request: { tests: readonly string[] }, discipline: Discipline): Array<{ group: Group; analytes: ReturnType<typeof analytesOfGroup> }> {
  return DISCIPLINE_GROUPS[discipline]
    .map((group) => ({ group, analytes: analytesOfGroup(group).filter((a) => request.tests.includes(a.code)) }))
    .filter((g) => g.analytes.length > 0);
}

const sameMeasurement = (a: MeasurementDraft = EMPTY_MEASUREMENT, b: MeasurementDraft = EMPTY_MEASUREMENT) =>
  a.number.trim() === b.number.trim() && a.uncertainty.trim() === b.uncertainty.trim() && a.k.trim() === b.k.trim() && a.qualifier === b.qualifier;

/** Whether two drafts hold the same result. */
export const sameDraft = (a: ResultDraft, b: ResultDraft) =>
  a.value === b.value && a.remark === b.remark && a.analysisDate === b.analysisDate && sameMeasurement(a.measurement, b.measurement);

/** Drafts of stored analyses (the batch save's answer); analyses without a value have none. */
export function draftsFromAnalyses(analyses: readonly AnalysisRecord[]): Record<string, ResultDraft> {
  const drafts: Record<string, ResultDraft> = {};
  for (const a of analyses) {
    if (a.value !== null) drafts[draftKey(a.sampleId, a.testCode)] = stored(a.value, a.remark, a.analysisDate, a.measurement);
  }
  return drafts;
}

/** The keys whose edit differs from what is stored: the unsaved rows. */
export function unsavedKeys(edits: Drafts, stored: Drafts): string[] {
  return Object.keys(edits).filter((key) => !sameDraft(edits[key], stored[key] ?? EMPTY_DRAFT));
}

/**
 * The batch save's entries for the unsaved rows; an emptied value clears the stored result. A row
 * whose measurement was entered or changed sends it (null when emptied), in the unit `unitOf` its
 * specification names, with the tester's confirmation of a + / − that differs from the decision.
 */
export function entriesOf(edits: Drafts, before: Drafts, unitOf: (key: string) => string | null = () => null): ResultEntry[] {
  return unsavedKeys(edits, before).map((key) => {
    const [sampleId, testCode] = key.split(':');
    const draft = edits[key];
    const cleared = draft.value.trim() === '';
    const measured = !sameMeasurement(draft.measurement, before[key]?.measurement);
    return {
      sampleId: Number(sampleId),
      testCode,
      value: cleared ? '' : draft.value,
      remark: cleared ? '' : draft.remark,
      analysisDate: cleared || draft.analysisDate === '' ? null : draft.analysisDate,
      ...(measured ? { measurement: cleared ? null : measurementOf(draft.measurement, unitOf(key)) } : {}),
      ...(draft.confirmed && !cleared ? { remarkConfirmed: true } : {}),
    };
  });
}
