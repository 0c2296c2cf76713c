// Changes to an existing account: its password, its verified e-mail, its status. A new password or
// a disabled account ends every session of the user, so an old session cannot outlive the change.
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { inTransaction } from '../../db/transaction.js';
import { hashPassword } from '../secrets.js';
import { endAllSessionsOf } from '../sessions.js';
import type { DeletionStatus } from '../users.js';

export async function setPassword(db: Knex, clock: Clock, userId: number, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await inTransaction(db, async (trx) => {
    await trx('users').where({ id: userId }).update({ password_hash: passwordHash, updated_at: clock.now().toISOString() });
    await endAllSessionsOf(trx, userId);
  });
}

export async function markEmailVerified(db: Knex, clock: Clock, userId: number): Promise<void> {
  const now = clock.now().toISOString();
  await db('users').where({ id: userId }).whereNull('email_verified_at').update({ email_verified_at: now, updated_at: now });
}

export async function setDeletionStatus(db: Knex | Knex.Transaction, clock: Clock, userId: number, status: DeletionStatus): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx('users').where({ id: userId }).update({ deletion_status: status, updated_at: clock.now().toISOString() });
    if (status !== 'ACTIVE') await endAllSessionsOf(trx, userId);
  });
}
