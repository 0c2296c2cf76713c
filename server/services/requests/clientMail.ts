// Mails to a request's client: queued in the transaction of the change (server/db/outbox.ts) with the
// request and the acting user, so that once the worker has sent one it is audited as 'mail.sent' and
// the request's timeline shows it (issue 15).
import type { Knex } from 'knex';
import { queueMail } from '../../db/outbox.js';
import type { Actor } from '../../domain/policies.js';
import type { MailMessage } from '../../mail/mailer.js';

export async function mailClient(trx: Knex.Transaction, actor: Actor, requestId: number, mail: MailMessage): Promise<void> {
  await queueMail(trx, mail, { requestId, actorUserId: actor.id });
}
