// Completion of a request's results per family (DESIGN.md section 10: a family is Completed when all
// its selected analyses are complete), next to the per-group flags of the combined result. Pure, so
// the desk lists and the screens agree on what "Completed" means.
import { FAMILIES, findAnalyte, GROUPS, type Family } from './catalog.js';
import { isAnalysisComplete } from './requestStatus.js';
import type { RequestWithSamples } from './requestShape.js';
import { GROUP_WIRE, isGroupComplete, type AnalysisRecord } from './resultShape.js';

export interface Completion {
  completeMicrobio: boolean;
  completeChem: boolean;
  completeMolBio: boolean;
  completeChemMicrobial: boolean;
  completeChemElisa: boolean;
}

/** A request as the for-release lists answer it: its samples, its completion, its results by sample in catalog order. */
export type RequestWithResults = RequestWithSamples & Completion & { results: AnalysisRecord[] };

export const FAMILY_COMPLETION_KEY: Record<Family, 'completeMicrobio' | 'completeChem' | 'completeMolBio'> = {
  microbio: 'completeMicrobio',
  chem: 'completeChem',
  molBio: 'completeMolBio',
};

/** A family is complete when the request has analyses of it and every one of them is complete. */
export function isFamilyComplete(family: Family, analyses: readonly Pick<AnalysisRecord, 'testCode' | 'value' | 'remark'>[]): boolean {
  const ofFamily = analyses.filter((a) => findAnalyte(a.testCode)?.family === family);
  return ofFamily.length > 0 && ofFamily.every(isAnalysisComplete);
}

export function completionOf(analyses: readonly AnalysisRecord[]): Completion {
  const completion = {} as Completion;
  for (const g of GROUPS) completion[GROUP_WIRE[g].complete] = isGroupComplete(g, analyses);
  for (const f of FAMILIES) completion[FAMILY_COMPLETION_KEY[f]] = isFamilyComplete(f, analyses);
  return completion;
}
