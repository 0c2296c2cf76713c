// Self-registration of clients (SPEC section 2, /register -> /tfaverify -> /registered): the account
// is created unverified and cannot log in until the e-mailed code comes back.
import { unauthorized } from '../../errors.js';
import type { Registration } from '../../domain/accountRules.js';
import { recordAudit } from '../audit.js';
import { createClientAccount } from '../clients.js';
import { consumeCode } from '../oneTimeCodes.js';
import { findUserByIdentifier, type User } from '../users.js';
import { codeDeps, sendCode, type AccountDeps } from './codes.js';
import { VERIFICATION_REFUSED } from './login.js';
import { markEmailVerified } from './updates.js';

/** Creates the unverified client account and e-mails its registration code. */
export async function registerClient(deps: AccountDeps, input: Registration, ip: string | null): Promise<User> {
  const user = await createClientAccount(deps.db, deps.clock, { ...input.user, verified: false }, input.client);
  try {
    await sendCode(deps, user, 'register');
  } catch (err) {
    // Without its code the account could never be verified: take it back so the form can be sent again.
    await deps.db('users').where({ id: user.id }).delete();
    throw err;
  }
  await recordAudit(deps.db, deps.clock, { actorUserId: user.id, action: 'account.registered', details: { email: user.email }, ip });
  return user;
}

/** Checks the registration code; the account can log in from then on. */
export async function verifyRegistration(deps: AccountDeps, email: string, otp: string): Promise<User> {
  const user = await findUserByIdentifier(deps.db, email);
  if (!user || user.deletionStatus !== 'ACTIVE' || user.emailVerifiedAt) throw unauthorized(VERIFICATION_REFUSED);
  if ((await consumeCode(await codeDeps(deps), user.id, 'register', otp)) !== 'ok') throw unauthorized(VERIFICATION_REFUSED);
  await markEmailVerified(deps.db, deps.clock, user.id);
  return user;
}
