// A request's timeline (issue 15): its audit entries, the messages they refer to and its sample
// positions, one query each, told by the pure domain/timeline.ts. The desk reads every request's; a
// client its own, without the laboratory's internal entries.
import type { Knex } from 'knex';
import { can, type Actor } from '../../domain/policies.js';
import { buildTimeline, type TimelineEvent } from '../../domain/timeline.js';
import { forbidden } from '../../errors.js';
import { auditOfRequest } from '../auditTrail.js';
import { readRequestHead } from './transitions.js';

export interface RequestTimeline {
  requestId: number;
  controlNumber: string | null;
  requestStatus: string;
  events: TimelineEvent[];
}

export async function requestTimeline(db: Knex, actor: Actor, requestId: number): Promise<RequestTimeline> {
  const head = await readRequestHead(db, requestId);
  if (!can(actor, 'request:read', { clientUserId: head.clientUserId })) throw forbidden();
  const [audit, messages, samples] = await Promise.all([
    auditOfRequest(db, requestId),
    db('request_messages').where('request_id', requestId).select('id', 'body'),
    db('samples').where('request_id', requestId).select('id', 'position'),
  ]);
  const events = buildTimeline(
    audit,
    messages.map((m) => ({ messageId: Number(m.id), body: m.body })),
    samples.map((s) => ({ sampleId: Number(s.id), position: Number(s.position) })),
    can(actor, 'audit:read') ? 'desk' : 'client',
  );
  return { requestId, controlNumber: head.controlNumber, requestStatus: head.status, events };
}
