/**
 * Traceability calls (issue 15): sample reception, a request's receipt and timeline, labels, the
 * audit trail and the turnaround dashboard.
 */
import type { AuditRecord, TimelineEvent } from '../../server/domain/timeline.js';
import type { Receipt, ReceiptCondition } from '../../server/domain/reception.js';
import type { Turnaround } from '../../server/domain/turnaround.js';
import { getJson, postJson, request, segment, withQuery, type QueryParams } from './http.js';

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

/** A page of the audit trail and how many entries match in all. */
export async function listAudit(query: AuditQuery, limit: number, offset: number, signal?: AbortSignal): Promise<{ rows: AuditRecord[]; total: number }> {
  const response = await request('GET', withQuery('/audit', { ...query, limit, offset }), { signal });
  return { rows: (await response.json()) as AuditRecord[], total: Number(response.headers.get('X-Total-Count') ?? 0) };
}

/** Where the browser downloads the filtered trail as CSV. */
export const auditCsvUrl = (query: AuditQuery) => withQuery('/audit', { ...query, format: 'csv' });

export function getTurnaround(signal?: AbortSignal): Promise<Turnaround> {
  return getJson<Turnaround>('/requests/turnaround', signal);
}
