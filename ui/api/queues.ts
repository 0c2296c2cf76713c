/**
 * The keyset-paged work queues (GET requests/queue/...) and a tester's whole-request Save (PUT
 * results/request/{id}). A page is the JSON rows; the next page's address comes in Link rel="next".
 */
import type { QueueName, QueueRow } from '../../server/domain/queue.js';
import type { RequestStatus } from '../../server/domain/requestStatus.js';
import type { AnalysisRecord, Remark } from '../../server/domain/resultShape.js';
import type { Measurement } from '../../server/domain/specifications.js';
import { getJson, nextPageOf, putJson, request, segment, withQuery, type QueryParams } from './http.js';

export type { QueueRow };

export interface QueuePage<T = QueueRow> {
  rows: T[];
  /** The path of the next page; null on the last one. */
  next: string | null;
  /** Rows in the whole list, when the list tells it (X-Total-Count); else null. */
  total: number | null;
}

/** The path of a work queue's first page (`client` with the client's id: the track list). */
export function queuePath(name: QueueName | { client: string | number }, params: QueryParams): string {
  const base = typeof name === 'string' ? `/requests/queue/${name}` : `/requests/queue/client/${segment(name.client)}`;
  return withQuery(base, params);
}

/** A page of a keyset-paged list (a work queue, the audit trail): its JSON rows and Link rel="next". */
export async function getQueuePage<T = QueueRow>(path: string, signal?: AbortSignal): Promise<QueuePage<T>> {
  const response = await request('GET', path, { signal });
  const total = response.headers.get('X-Total-Count');
  return { rows: (await response.json()) as T[], next: nextPageOf(response), total: total === null ? null : Number(total) };
}

/** GET requests/queue/client/{userId}/counts: requests per status (of those the search `q` finds). */
export function getClientStatusCounts(userId: string | number, q: string, signal?: AbortSignal): Promise<Record<RequestStatus, number>> {
  return getJson(withQuery(`/requests/queue/client/${segment(userId)}/counts`, { q: q || null }), signal);
}

export interface ResultEntry {
  sampleId: number;
  testCode: string;
  /** '' clears the stored result. */
  value: string;
  remark: '' | Remark;
  analysisDate: string | null;
  /** Issue 26, additive: the measured value behind `value` (null clears it). */
  measurement?: Measurement | null;
  /** The tester confirms a remark that differs from the decision's. */
  remarkConfirmed?: boolean;
}

export interface SavedResults {
  requestId: number;
  changed: number;
  requestStatus: RequestStatus;
  analyses: AnalysisRecord[];
}

/** PUT results/request/{requestId}: every entry in one call and one transaction. */
export function saveRequestResults(requestId: number, entries: ResultEntry[]): Promise<SavedResults> {
  return putJson<SavedResults>(`/results/request/${segment(requestId)}`, { entries });
}

/** The oldest request pending review (one row of the pending queue), or null when none is left. */
export async function getNextPendingRequest(signal?: AbortSignal): Promise<QueueRow | null> {
  const { rows } = await getQueuePage(queuePath('pending', { limit: 1, sort: 'oldest' }), signal);
  return rows[0] ?? null;
}
