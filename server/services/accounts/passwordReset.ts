// Forgotten passwords (SPEC section 2, /forget -> /tfa-forgot-pass -> /change-pass): a code by mail,
// then a short-lived reset grant that alone allows choosing a new password (DESIGN.md section 7).
import { forbidden, notFound, unauthorized } from '../../errors.js';
import { recordAudit } from '../audit.js';
import { consumeCode, issueGrant } from '../oneTimeCodes.js';
import { findUserByIdentifier, type User } from '../users.js';
import { codeDeps, sendCode, type AccountDeps } from './codes.js';
import { markEmailVerified, setPassword } from './updates.js';

export const NOT_IN_SYSTEM = 'This e-mail is not in the system.';
export const RESET_CODE_REFUSED = 'The OTP you have provided is incorrect or expired';
export const RESET_NOT_VERIFIED = 'Please verify the code sent to your e-mail before changing your password.';

// Disabled accounts are treated as unknown: a reset must not become a way back in.
async function activeUser(deps: AccountDeps, identifier: string): Promise<User | undefined> {
  const user = await findUserByIdentifier(deps.db, identifier);
  return user?.deletionStatus === 'ACTIVE' ? user : undefined;
}

/** GET /check-user: 404 for an unknown address (the screen then says so), else a reset code is e-mailed. */
export async function startPasswordReset(deps: AccountDeps, identifier: string): Promise<User> {
  const user = await activeUser(deps, identifier);
  if (!user) throw notFound(NOT_IN_SYSTEM);
  await sendCode(deps, user, 'reset');
  return user;
}

/** Checks the reset code and returns the grant token that POST /change-password needs. */
export async function verifyResetCode(deps: AccountDeps, email: string, otp: string): Promise<string> {
  const user = await activeUser(deps, email);
  if (!user || (await consumeCode(await codeDeps(deps), user.id, 'reset', otp)) !== 'ok') throw unauthorized(RESET_CODE_REFUSED);
  // The code proves the address belongs to the user, just as the registration code would.
  await markEmailVerified(deps.db, deps.clock, user.id);
  return issueGrant(await codeDeps(deps), user.id);
}

/** Sets the new password when `grant` is the unused grant of this account; ends its sessions. */
export async function resetPassword(deps: AccountDeps, email: string, grant: string | undefined, newPassword: string, ip: string | null): Promise<void> {
  const user = await activeUser(deps, email);
  if (!user || !grant || (await consumeCode(await codeDeps(deps), user.id, 'reset_grant', grant)) !== 'ok') throw forbidden(RESET_NOT_VERIFIED);
  await setPassword(deps.db, deps.clock, user.id, newPassword);
  await recordAudit(deps.db, deps.clock, { actorUserId: user.id, action: 'account.password-reset', ip });
}
