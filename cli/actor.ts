// The account a command acts as (`--as <email>`): it must exist, be active, and be allowed by the
// same policy table the API uses.
import type { Knex } from 'knex';
import type { Actor } from '../server/domain/policies.js';
import { findUserByIdentifier, type User } from '../server/services/users.js';
import { AbortError, UsageError } from './runtime.js';

/**
 * Finds the active account named by `identifier` (e-mail or username) and checks `allowed` on it;
 * `needs` completes the refusal, e.g. "only staff and admin accounts may approve requests".
 */
export async function actingAccount(
  db: Knex,
  identifier: string | undefined,
  allowed: (actor: Actor) => boolean,
  needs: string,
): Promise<User> {
  if (!identifier?.trim()) throw new UsageError(`Say who is acting with --as <email>: ${needs}.`);
  const found = await findUserByIdentifier(db, identifier);
  if (!found) throw new AbortError(`No account has the e-mail or username ${identifier}.`);
  const { passwordHash: _hash, ...user } = found;
  if (user.deletionStatus !== 'ACTIVE') {
    throw new AbortError(`The account ${user.email} is ${user.deletionStatus.toLowerCase()}: only active accounts may act.`);
  }
  if (!allowed(user)) throw new AbortError(`${user.email} is a ${user.role} account: ${needs}.`);
  return user;
}
