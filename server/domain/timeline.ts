// The story of one request, from submission to release (issue 15), told from the audit log and the
// messages exchanged about it. Pure: the service reads each source once and hands the rows here.
import { findAnalyte } from './catalog.js';
import { describeReceipt, type ReceiptCondition } from './reception.js';

/** One audit_log row with its actor's name and role (null for the system or a deleted user). */
export interface AuditRecord {
  id: number;
  at: string;
  actorUserId: number | null;
  actorName: string | null;
  actorRole: string | null;
  action: string;
  requestId: number | null;
  controlNumber: string | null;
  details: unknown;
  ip: string | null;
}

export interface TimelineMessage {
  messageId: number;
  body: string;
}

export type TimelineKind =
  | 'submitted' | 'question' | 'reply' | 'approved' | 'received' | 'result' | 'completed' | 'reopened' | 'released' | 'rejected' | 'mail';

export interface TimelineEvent {
  at: string;
  kind: TimelineKind;
  title: string;
  /** Who did it ("Ana Cruz (staff)"), or null for the system. */
  actor: string | null;
  detail: string | null;
  /** Before and after of a changed value (result entries). */
  before?: string;
  after?: string;
}

/** Who reads the timeline: the desk sees everything; the client does not see the laboratory's internal work. */
export type TimelineViewer = 'desk' | 'client';

/** Kinds only the desk sees: results are the laboratory's until released. */
const STAFF_ONLY: ReadonlySet<TimelineKind> = new Set(['result', 'reopened']);

interface StoredResult {
  value: string | null;
  remark: string | null;
  analysisDate: string | null;
}

interface ResultChange {
  sampleId: number;
  testCode: string;
  before: StoredResult;
  after: StoredResult;
}

const asObject = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});

/** "Negative, 'Not detected' (analysed 2026-03-02)", or "empty". */
export function describeResult(r: StoredResult): string {
  if (r.value === null && r.remark === null) return 'empty';
  const parts = [r.value === null ? 'no value' : `'${r.value}'`];
  if (r.remark) parts.push(r.remark);
  if (r.analysisDate) parts.push(`analysed ${r.analysisDate}`);
  return parts.join(', ');
}

function actorOf(record: AuditRecord): string | null {
  if (!record.actorName) return null;
  return record.actorRole ? `${record.actorName} (${record.actorRole})` : record.actorName;
}

/** The events one audit record tells, in order. */
function eventsOf(record: AuditRecord, messages: ReadonlyMap<number, string>, samplePositions: ReadonlyMap<number, number>): TimelineEvent[] {
  const d = asObject(record.details);
  const base = { at: record.at, actor: actorOf(record) };
  const after = asObject(d.after);
  switch (record.action) {
    case 'request.submit':
      return [{ ...base, kind: 'submitted', title: 'Submitted', detail: null }];
    case 'request.ask-info':
    case 'request.reply': {
      const question = record.action === 'request.ask-info';
      return [{ ...base, kind: question ? 'question' : 'reply', title: question ? 'Additional information asked' : 'Client answered', detail: messages.get(Number(d.messageId)) ?? null }];
    }
    case 'request.approve':
      return [{ ...base, kind: 'approved', title: 'Approved', detail: typeof after.controlNumber === 'string' ? `Control number ${after.controlNumber}` : null }];
    case 'request.receive':
      return [{
        ...base,
        kind: 'received',
        title: 'Samples received',
        detail: describeReceipt({
          containers: Number(after.containers),
          condition: after.condition as ReceiptCondition,
          reason: (after.reason as string | null) ?? null,
          temperatureC: after.temperatureC === null || after.temperatureC === undefined ? null : Number(after.temperatureC),
        }) + (typeof after.receivedAt === 'string' ? `; arrived ${after.receivedAt}` : ''),
      }];
    case 'results.write': {
      const events: TimelineEvent[] = ((d.results as ResultChange[] | undefined) ?? []).map((c) => ({
        ...base,
        kind: 'result' as const,
        title: c.before.value === null ? 'Result entered' : 'Result changed',
        detail: `${findAnalyte(c.testCode)?.label ?? c.testCode}, sample ${samplePositions.get(c.sampleId) ?? c.sampleId}`,
        before: describeResult(c.before),
        after: describeResult(c.after),
      }));
      const status = asObject(d.status);
      if (status.after === 'FOR_RELEASE') events.push({ ...base, kind: 'completed', title: 'Testing completed', detail: 'Every result is in: ready for release' });
      if (status.after === 'FOR_TESTING') events.push({ ...base, kind: 'reopened', title: 'Testing reopened', detail: 'A result was cleared' });
      return events;
    }
    case 'request.release': {
      // Signed releases (issue 14) keep the signature in the entry; earlier ones were not signed.
      const signature = asObject(d.signature);
      const signed = typeof signature.signerName === 'string' ? `Signed by ${signature.signerName}: ${String(signature.meaning)}` : null;
      return [{ ...base, kind: 'released', title: 'Released', detail: signed }];
    }
    case 'request.reject':
      return [{ ...base, kind: 'rejected', title: 'Rejected', detail: typeof d.reason === 'string' ? d.reason : null }];
    case 'mail.sent':
      return [{ ...base, kind: 'mail', title: 'Mail sent', detail: [d.subject, d.to ? `to ${String(d.to)}` : null].filter(Boolean).join(' ') || null }];
    default:
      return [];
  }
}

/**
 * Every event of a request in order (audit order: time, then insertion). The client reads it without
 * the laboratory's internal entries (result entries and reopenings).
 */
export function buildTimeline(
  audit: readonly AuditRecord[],
  messages: readonly TimelineMessage[],
  samples: readonly { sampleId: number; position: number }[],
  viewer: TimelineViewer,
): TimelineEvent[] {
  const bodies = new Map(messages.map((m) => [m.messageId, m.body]));
  const positions = new Map(samples.map((s) => [s.sampleId, s.position]));
  const ordered = [...audit].sort((a, b) => (a.at === b.at ? a.id - b.id : a.at < b.at ? -1 : 1));
  const events = ordered.flatMap((r) => eventsOf(r, bodies, positions));
  return viewer === 'desk' ? events : events.filter((e) => !STAFF_ONLY.has(e.kind));
}
