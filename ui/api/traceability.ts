/**
 * Traceability calls (issue 15): sample reception, a request's receipt and timeline, labels, the
 * audit trail and the turnaround dashboard.
 */
import type { AuditRecord, TimelineEvent } from '../../server/domain/timeline.js';
import type { Receipt, ReceiptCondition } from '../../server/domain/reception.js';
import type { Turnaround, TurnaroundWeeks } from '../../server/domain/turnaround.js';
import { getJson, nextPageOf, postJson, request, segment, withQuery, type QueryParams } from './http.js';

export type { AuditRecord, Receipt, TimelineEvent, Turnaround };

export interface ReceiptForm {
  receivedAt: string;
  containers: number;
  condition: ReceiptCondition;
  reason: string | null;
  temperatureC: number | null;
}

export function recordReceipt(requestId: string | number, form: ReceiptForm): Promise<Receipt> {
  return postJson<Receipt>(`/requests/receive/${segment(requestId)}`, form);
}

export async function getReceipt(requestId: string | number, signal?: AbortSignal): Promise<Receipt | null> {
  return (await getJson<{ receipt: Receipt | null }>(`/requests/receipt/${segment(requestId)}`, signal)).receipt;
}

/** Where the browser opens a request's sample labels (a PDF). */
export const labelsUrl = (requestId: string | number) => `/requests/labels/${segment(requestId)}`;

export interface RequestTimeline {
  requestId: number;
  controlNumber: string | null;
  requestStatus: string;
  events: TimelineEvent[];
}

export function getTimeline(requestId: string | number, signal?: AbortSignal): Promise<RequestTimeline> {
  return getJson<RequestTimeline>(`/requests/timeline/${segment(requestId)}`, signal);
}

export interface AuditQuery extends QueryParams {
  user?: string;
  request?: string;
  action?: string;
  since?: string;
  until?: string;
}

/** The first page of the filtered audit trail (a keyset list: the next pages come in Link rel="next"). */
export const auditPath = (query: AuditQuery, limit: number) => withQuery('/audit', { ...query, limit });

/** Where the browser downloads the filtered trail as CSV. */
export const auditCsvUrl = (query: AuditQuery) => withQuery('/audit', { ...query, format: 'csv' });

export interface TurnaroundPage {
  turnaround: Turnaround;
  /** Open requests in all. */
  total: number;
  /** The path of the next page of open requests; null on the last one. */
  next: string | null;
}

/** The turnaround chart's address with its filters (discipline, since, until). */
export const turnaroundWeeksPath = (params: QueryParams) => withQuery('/requests/turnaround/weeks', params);

/** GET requests/turnaround/weeks (`path`: turnaroundWeeksPath): the chart per discipline and week of submission. */
export function getTurnaroundWeeks(path: string, signal?: AbortSignal): Promise<TurnaroundWeeks> {
  return getJson<TurnaroundWeeks>(path, signal);
}

/** The turnaround dashboard's address with its filters (discipline, since, until, late). */
export const turnaroundPath = (params: QueryParams) => withQuery('/requests/turnaround', params);

/** The turnaround dashboard with its first page of open requests (`path`: turnaroundPath), or the page at a `next`. */
export async function getTurnaround(path: string, signal?: AbortSignal): Promise<TurnaroundPage> {
  const response = await request('GET', path, { signal });
  return { turnaround: (await response.json()) as Turnaround, total: Number(response.headers.get('X-Total-Count') ?? 0), next: nextPageOf(response) };
}
