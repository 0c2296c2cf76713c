// Completion of a request's results per family (DESIGN.md section 10: a family is Completed when all
// its selected analyses are complete), next to the per-group flags of the combined result. Pure, so
// the desk lists and the screens agree on what "Completed" means.
import { analytesOfGroup, FAMILIES, GROUPS, type Family, type Group } from './catalog.js';
import { isAnalysisComplete } from './requestStatus.js';
import type { RequestListRow } from './requestShape.js';
import { GROUP_WIRE, type AnalysisRecord } from './resultShape.js';
import type { Outcome } from './specifications.js';

export interface Completion {
  completeMicrobio: boolean;
  completeChem: boolean;
  completeMolBio: boolean;
  completeChemMicrobial: boolean;
  completeChemElisa: boolean;
}

/** A row of GET requests/for-release: the request's summary and its completion (results are read per request). */
export type ForReleaseRow = RequestListRow & Completion & {
  /** Issue 26: the worst decision of the request's analyses (null: none judged). */
  conformity?: Outcome | null;
};

export const FAMILY_COMPLETION_KEY: Record<Family, 'completeMicrobio' | 'completeChem' | 'completeMolBio'> = {
  microbio: 'completeMicrobio',
  chem: 'completeChem',
  molBio: 'completeMolBio',
};

/** How many analyses a request has in a group, and how many of them are complete. */
export interface GroupCount {
  total: number;
  complete: number;
}

const NONE: GroupCount = { total: 0, complete: 0 };
const isDone = (c: GroupCount) => c.total > 0 && c.complete === c.total;

/**
 * Completion from per-group counts (SQL counts them for the lists): a group or family is complete
 * when the request has analyses in it and every one of them is complete.
 */
export function completionFromCounts(counts: Partial<Record<Group, GroupCount>>): Completion {
  const completion = {} as Completion;
  for (const g of GROUPS) completion[GROUP_WIRE[g].complete] = isDone(counts[g] ?? NONE);
  for (const f of FAMILIES) {
    const ofFamily = GROUPS.filter((g) => analytesOfGroup(g)[0].family === f).map((g) => counts[g] ?? NONE);
    completion[FAMILY_COMPLETION_KEY[f]] = isDone({
      total: ofFamily.reduce((n, c) => n + c.total, 0),
      complete: ofFamily.reduce((n, c) => n + c.complete, 0),
    });
  }
  return completion;
}

export function completionOf(analyses: readonly AnalysisRecord[]): Completion {
  const counts: Partial<Record<Group, GroupCount>> = {};
  for (const a of analyses) {
    const c = (counts[a.group] ??= { total: 0, complete: 0 });
    c.total += 1;
    if (isAnalysisComplete(a)) c.complete += 1;
  }
  return completionFromCounts(counts);
}
