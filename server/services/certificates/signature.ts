// Electronic signatures (21 CFR 11.200): the signer types their password again. Failed attempts are
// counted by the database rate limits, like login attempts, per account and per address.
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import type { Actor } from '../../domain/policies.js';
import { forbidden } from '../../errors.js';
import { LIMITS, limited } from '../rateLimits.js';
import { verifyPassword } from '../secrets.js';

export interface Signer {
  id: number;
  name: string;
}

/**
 * Checks `password` against the actor's account and answers the signer's id and printed name; a
 * wrong password is refused with 403 naming what did not happen (`refusal`, e.g. 'nothing was released').
 */
export async function checkSignature(
  deps: { db: Knex; clock: Clock },
  actor: Actor,
  password: string,
  refusal: string,
  ip: string | null | undefined,
): Promise<Signer> {
  return limited(deps, LIMITS.signature, { ip: ip ?? 'local', identifier: `signer:${actor.id}` }, async () => {
    const row = await deps.db('users').where({ id: actor.id, deletion_status: 'ACTIVE' }).first('first_name', 'middle_name', 'last_name', 'password_hash');
    if (!row || !(await verifyPassword(password, row.password_hash))) {
      throw forbidden(`Your password is incorrect: ${refusal}.`);
    }
    const middle = row.middle_name ? ` ${row.middle_name}.` : '';
    return { id: actor.id, name: `${row.first_name}${middle} ${row.last_name}` };
  });
}
