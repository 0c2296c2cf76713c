// Two-step login (DESIGN.md section 7): password, then a 6-digit code sent by e-mail.
import { unauthorized } from '../../errors.js';
import { consumeCode } from '../oneTimeCodes.js';
import { hashPassword, verifyPassword } from '../secrets.js';
import { findUserByIdentifier, type User } from '../users.js';
import { codeDeps, sendCode, type AccountDeps } from './codes.js';

export const LOGIN_REFUSED = 'Your password is incorrect or this account does not exist.';
export const VERIFICATION_REFUSED = 'Unsuccessful verification.';

// Verifying against a throwaway hash keeps the answer time the same for unknown accounts.
const dummyHash = hashPassword('not-a-real-password');

/** Checks the password and e-mails a login code. Refuses unknown, unverified and inactive accounts alike. */
export async function startLogin(deps: AccountDeps, identifier: string, password: string): Promise<User> {
  const user = await findUserByIdentifier(deps.db, identifier);
  const passwordOk = await verifyPassword(password, user?.passwordHash ?? (await dummyHash));
  if (!user || !passwordOk || user.deletionStatus !== 'ACTIVE' || !user.emailVerifiedAt) throw unauthorized(LOGIN_REFUSED);
  await sendCode(deps, user, 'login');
  return user;
}

/** Checks the login code; the caller then opens a session for the returned user. */
export async function completeLogin(deps: Pick<AccountDeps, 'db' | 'clock' | 'codeKey'>, identifier: string, otp: string): Promise<User> {
  const user = await findUserByIdentifier(deps.db, identifier);
  if (!user || user.deletionStatus !== 'ACTIVE') throw unauthorized(VERIFICATION_REFUSED);
  const check = await consumeCode(await codeDeps(deps), user.id, 'login', otp);
  if (check !== 'ok') throw unauthorized(VERIFICATION_REFUSED);
  return user;
}
