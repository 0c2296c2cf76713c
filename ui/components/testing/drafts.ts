/**
 * What the tester has typed, per sample and analyte, and how it becomes the entries of one batch
 * save: only rows that differ from what is stored are sent, a missing remark as '', a missing date
 * as null, an emptied value as '' (which clears the stored result).
 */
import { analytesOfGroup, DISCIPLINE_GROUPS, type Group } from '../../../server/domain/catalog.js';
import { resultOf, type AnalysisRecord, type Remark, type WideResult } from '../../../server/domain/resultShape.js';
import type { Discipline } from '../../../server/domain/roles.js';
import type { ResultEntry } from '../../api/queues.js';

export interface ResultDraft {
  value: string;
  remark: '' | Remark;
  /** YYYY-MM-DD, or '' when unset. */
  analysisDate: string;
}

export type Drafts = Readonly<Record<string, ResultDraft>>;

export const EMPTY_DRAFT: ResultDraft = { value: '', remark: '', analysisDate: '' };

export const draftKey = (sampleId: number, code: string) => `${sampleId}:${code}`;

/** Drafts prefilled from what is stored (the per-group lists). */
export function draftsFromResults(lists: readonly WideResult[][]): Record<string, ResultDraft> {
  const drafts: Record<string, ResultDraft> = {};
  for (const item of lists.flat()) {
    for (const key of Object.keys(item)) {
      if (key.endsWith('Remarks') || key.endsWith('AnalysisDate')) continue;
      const { value, remark, analysisDate } = resultOf(item, key);
      if (value !== null) drafts[draftKey(item.sampleId, key)] = { value, remark: remark ?? '', analysisDate: analysisDate ?? '' };
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

/** Whether two drafts hold the same result. */
export const sameDraft = (a: ResultDraft, b: ResultDraft) => a.value === b.value && a.remark === b.remark && a.analysisDate === b.analysisDate;

/** Drafts of stored analyses (the batch save's answer); analyses without a value have none. */
export function draftsFromAnalyses(analyses: readonly AnalysisRecord[]): Record<string, ResultDraft> {
  const drafts: Record<string, ResultDraft> = {};
  for (const a of analyses) {
    if (a.value !== null) drafts[draftKey(a.sampleId, a.testCode)] = { value: a.value, remark: a.remark ?? '', analysisDate: a.analysisDate ?? '' };
  }
  return drafts;
}

/** The keys whose edit differs from what is stored: the unsaved rows. */
export function unsavedKeys(edits: Drafts, stored: Drafts): string[] {
  return Object.keys(edits).filter((key) => !sameDraft(edits[key], stored[key] ?? EMPTY_DRAFT));
}

/** The batch save's entries for the unsaved rows; an emptied value clears the stored result. */
export function entriesOf(edits: Drafts, stored: Drafts): ResultEntry[] {
  return unsavedKeys(edits, stored).map((key) => {
    const [sampleId, testCode] = key.split(':');
    const draft = edits[key];
    const cleared = draft.value.trim() === '';
    return {
      sampleId: Number(sampleId),
      testCode,
      value: cleared ? '' : draft.value,
      remark: cleared ? '' : draft.remark,
      analysisDate: cleared || draft.analysisDate === '' ? null : draft.analysisDate,
    };
  });
}
