/**
 * The testers' calls (SPEC section 7): requests awaiting tests, the per-group result writes, and
 * the combined result of a request (the screens read stored results through it, one request at a
 * time, rather than the per-group lists of every open request). The for-release and released lists
 * are in ./desk.ts.
 */
import type { Group } from '../../server/domain/catalog.js';
import { GROUP_WIRE, type CombinedResult, type ForTestingRequest, type WideResult } from '../../server/domain/resultShape.js';
import { getJson, putJson, segment } from './http.js';

export type { CombinedResult, ForTestingRequest, WideResult };

/** GET requests/for-testing: every request with tests of the caller's discipline, FOR_TESTING or FOR_RELEASE, with its tests and samples. */
export function listForTesting(signal?: AbortSignal): Promise<ForTestingRequest[]> {
  return getJson<ForTestingRequest[]>('/requests/for-testing', signal);
}

/** The analyte fields of a PUT: `{<analyte>, <analyte>Remarks, <analyte>AnalysisDate}`. */
export type GroupPayload = Record<string, string | null>;

/** PUT /microbioTestResults/{sampleId} (and siblings); answers the sample's stored results. */
export function saveGroupResults(group: Group, sampleId: number, payload: GroupPayload): Promise<WideResult> {
  return putJson<WideResult>(`${GROUP_WIRE[group].writePath}/${segment(sampleId)}`, payload);
}

/**
 * GET getResult/{requestId}: the combined result. A tester gets its own groups filled in; a client
 * is refused until the request is released.
 */
export function getCombinedResult(requestId: string | number, signal?: AbortSignal): Promise<CombinedResult> {
  return getJson<CombinedResult>(`/getResult/${segment(requestId)}`, signal);
}
