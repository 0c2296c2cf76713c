/**
 * The combined result of a request (SPEC section 7): the screens read stored results through it, one
 * request at a time, rather than the per-group lists of every open request. The work queues and the
 * tester's Save are in ./queues.ts, the for-release and released lists in ./desk.ts.
 */
import type { CombinedResult, WideResult } from '../../server/domain/resultShape.js';
import { getJson, segment, withQuery } from './http.js';

export type { CombinedResult, WideResult };

/**
 * GET getResult/{requestId}: the combined result. A tester gets its own groups filled in; a client
 * is refused until the request is released.
 */
export function getCombinedResult(requestId: string | number, signal?: AbortSignal): Promise<CombinedResult> {
  return getJson<CombinedResult>(`/getResult/${segment(requestId)}`, signal);
}

/**
 * Where GET results/template downloads the discipline's analyses awaiting results (`state` as the
 * For Testing page's Show filter) in the layout `labctl results import` reads, values empty.
 */
export function resultsTemplatePath(discipline: string, state: string): string {
  return withQuery('/results/template', { discipline, status: state });
}
