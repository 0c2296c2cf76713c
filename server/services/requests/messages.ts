// Additional information (DESIGN.md sections 5 and 10): staff ask a question about a request that is
// PENDING REVIEW, the client is e-mailed and answers on its review screen; both sides read the
// exchange. Questions and replies are stored in request_messages and audited.
import type { Knex } from 'knex';
import { isoNow } from '../../clock.js';
import { insertReturningId } from '../../db/sql.js';
import { inTransaction } from '../../db/transaction.js';
import { can, type Actor } from '../../domain/policies.js';
import type { MessageKind, RequestMessage } from '../../domain/requestMessages.js';
import { STATUS_DISPLAY } from '../../domain/requestStatus.js';
import { conflict, forbidden } from '../../errors.js';
import { informationRequestMail } from '../../mail/requestMails.js';
import { recordAudit } from '../audit.js';
import { mailClient } from './clientMail.js';
import { readRequestHead, type AuditMeta, type DeskDeps, type RequestHead } from './transitions.js';

async function readableHead(db: Knex, actor: Actor, requestId: number): Promise<RequestHead> {
  const head = await readRequestHead(db, requestId);
  if (!can(actor, 'request:read', { clientUserId: head.clientUserId })) throw forbidden();
  return head;
}

/** The exchange about a request, oldest first; for staff and the owning client. */
export async function listRequestMessages(db: Knex, actor: Actor, requestId: number): Promise<RequestMessage[]> {
  await readableHead(db, actor, requestId);
  const rows = await db('request_messages')
    .where('request_id', requestId)
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select('id', 'request_id', 'kind', 'body', 'created_at');
  return rows.map((r) => ({
    messageId: Number(r.id),
    requestId: Number(r.request_id),
    kind: r.kind as MessageKind,
    body: r.body,
    createdAt: r.created_at,
  }));
}

/**
 * Staff (and admins) ask a question; the owning client replies to one. Only while the request is
 * PENDING REVIEW (409 otherwise). A question's e-mail to the client is queued in the same transaction.
 */
export async function postRequestMessage(deps: DeskDeps, actor: Actor, requestId: number, body: string, meta: AuditMeta = {}): Promise<RequestMessage> {
  const kind: MessageKind = can(actor, 'request:ask-info') ? 'question' : 'reply';
  if (kind === 'reply' && actor.role !== 'client') throw forbidden();
  return inTransaction(deps.db, async (trx) => {
    const head = await readRequestHead(trx, requestId);
    if (kind === 'reply' && !can(actor, 'request:reply', { clientUserId: head.clientUserId })) throw forbidden();
    if (head.status !== 'PENDING_REVIEW') {
      throw conflict(
        `Additional information can only be exchanged while a request is ${STATUS_DISPLAY.PENDING_REVIEW}; this one is ${STATUS_DISPLAY[head.status]}.`,
      );
    }
    if (kind === 'reply' && !(await trx('request_messages').where({ request_id: requestId, kind: 'question' }).first('id'))) {
      throw conflict('The laboratory has not asked for additional information about this request.');
    }
    const createdAt = isoNow(deps.clock);
    const messageId = await insertReturningId(trx, 'request_messages', { request_id: requestId, author_user_id: actor.id, kind, body, created_at: createdAt });
    await recordAudit(trx, deps.clock, {
      actorUserId: actor.id,
      action: kind === 'question' ? 'request.ask-info' : 'request.reply',
      requestId,
      details: { messageId },
      ip: meta.ip,
    });
    if (kind === 'question') await mailClient(trx, actor, requestId, informationRequestMail(head, body, deps.labName));
    return { messageId, requestId, kind, body, createdAt };
  });
}
