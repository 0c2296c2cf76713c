/**
 * What the tester has typed, per sample and analyte, and how it becomes the PUT payloads of SPEC
 * section 5: only analytes with a value are sent, a missing remark as '', a missing date as null.
 */
import { analytesOfGroup, DISCIPLINE_GROUPS, type Group } from '../../../server/domain/catalog.js';
import {
  analysisDateKey,
  remarksKey,
  resultOf,
  type ForTestingRequest,
  type Remark,
  type WideResult,
} from '../../../server/domain/resultShape.js';
import type { Discipline } from '../../../server/domain/roles.js';
import type { GroupPayload } from '../../api/results.js';

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
export function groupsToTest(request: ForTestingRequest, discipline: Discipline): Array<{ group: Group; analytes: ReturnType<typeof analytesOfGroup> }> {
  return DISCIPLINE_GROUPS[discipline]
    .map((group) => ({ group, analytes: analytesOfGroup(group).filter((a) => request.tests.includes(a.code)) }))
    .filter((g) => g.analytes.length > 0);
}

/** The PUT payload of one sample and group, or null when nothing of it has a value (no call is made). */
export function payloadFor(analytes: ReturnType<typeof analytesOfGroup>, sampleId: number, drafts: Drafts): GroupPayload | null {
  const payload: GroupPayload = {};
  for (const a of analytes) {
    const draft = drafts[draftKey(sampleId, a.code)];
    if (!draft || draft.value.trim() === '') continue;
    payload[a.code] = draft.value;
    payload[remarksKey(a.code)] = draft.remark;
    payload[analysisDateKey(a.code)] = draft.analysisDate === '' ? null : draft.analysisDate;
  }
  return Object.keys(payload).length > 0 ? payload : null;
}
