// Mails to a request's client: queued in the transaction of the change (server/db/outbox.ts) with the
// request and the acting user, so that once the worker has sent one it is audited as 'mail.sent' and
// the request's timeline shows it (issue 15).
import type { Knex } from 'knex';
import { mailInsert } from '../../db/outbox.js';
import type { Actor } from '../../domain/policies.js';
import type { MailMessage } from '../../mail/mailer.js';

export async function mailClient(trx: Knex.Transaction, actor: Actor, requestId: number, mail: MailMessage): Promise<void> {
  await clientMailInsert(trx, actor, requestId, mail);
}

/** mailClient's insert, to run with the change's other writes (runTogether, db/sql.ts). */
export function clientMailInsert(trx: Knex.Transaction, actor: Actor, requestId: number, mail: MailMessage): Knex.QueryBuilder {
  return mailInsert(trx, mail, { requestId, actorUserId: actor.id });
}
