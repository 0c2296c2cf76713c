// E-mailed one-time codes of the account flows (login, registration, password reset): sending one,
// and sending it again on request with a cooldown.
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import { RESEND_COOLDOWN_SECONDS } from '../../domain/accountRules.js';
import { queueMail } from '../../db/outbox.js';
import { inTransaction } from '../../db/transaction.js';
import { badRequest, tooManyRequests } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { codeMail, type CodeMailKind } from '../../mail/templates.js';
import { hasOpenCode, issueCode, lastCodeSentAt, type CodeDeps } from '../oneTimeCodes.js';
import { serverSecret } from '../serverSecret.js';
import { findUserByIdentifier, type User } from '../users.js';

/** What the account use cases need; the API and the CLI build it from their own settings. */
export interface AccountDeps {
  db: Knex;
  clock: Clock;
  logger: Logger;
  labName: string;
  /**
   * The key of the stored hashes of one-time codes (the server secret). Read when first needed, and
   * before a transaction opens: on SQLite, storing it from inside one would wait on its own lock.
   */
  codeKey(): Promise<string>;
}

/** The account deps out of the app's (or the CLI runtime's) dependencies. */
export const accountDeps = (deps: Omit<AccountDeps, 'labName' | 'codeKey'> & { config: Pick<Config, 'labName' | 'secretKey' | 'dataDir'> }): AccountDeps => ({
  db: deps.db,
  clock: deps.clock,
  logger: deps.logger,
  labName: deps.config.labName,
  codeKey: () => serverSecret({ db: deps.db, clock: deps.clock, config: deps.config }),
});

/** What checking or issuing a code needs: the database (or a transaction), the clock and the key. */
export const codeDeps = async (deps: Pick<AccountDeps, 'db' | 'clock' | 'codeKey'>): Promise<CodeDeps> => ({ db: deps.db, clock: deps.clock, codeKey: await deps.codeKey() });

/** The kinds of code a user can ask to be sent again (POST /resend-code). */
export const CODE_KINDS = ['login', 'register', 'reset'] as const satisfies readonly CodeMailKind[];

/**
 * Issues a fresh code of `kind` for `user` (voiding the older one) and queues its e-mail in the same
 * transaction: the outbox sends it, so a mail server outage delays the code but never loses it.
 */
export async function sendCode(deps: AccountDeps, user: Pick<User, 'id' | 'email'>, kind: CodeMailKind): Promise<void> {
  const codeKey = await deps.codeKey();
  await inTransaction(deps.db, async (trx) => {
    const code = await issueCode({ db: trx, clock: deps.clock, codeKey }, user.id, kind);
    await queueMail(trx, codeMail(kind, user.email, code, deps.labName));
  });
}

const NOTHING_TO_RESEND: Record<CodeMailKind, string> = {
  login: 'Your login code has expired or was used up. Please log in again.',
  register: 'There is no registration waiting for a code for this e-mail address.',
  reset: 'This e-mail is not in the system.',
};

/**
 * Whether a new code of `kind` may be sent: a login code only while a login (password already
 * checked) is waiting for its code; a registration code only to an unverified account; a reset code
 * to any active account, like GET /check-user.
 */
async function mayResend(deps: AccountDeps, user: User, kind: CodeMailKind): Promise<boolean> {
  if (user.deletionStatus !== 'ACTIVE') return false;
  switch (kind) {
    case 'login':
      return Boolean(user.emailVerifiedAt) && (await hasOpenCode(deps.db, deps.clock, user.id, 'login'));
    case 'register':
      return !user.emailVerifiedAt;
    case 'reset':
      return true;
  }
}

/** Sends the code of `kind` again, at most once per RESEND_COOLDOWN_SECONDS. */
export async function resendCode(deps: AccountDeps, kind: CodeMailKind, identifier: string): Promise<void> {
  const user = await findUserByIdentifier(deps.db, identifier);
  if (!user || !(await mayResend(deps, user, kind))) throw badRequest(NOTHING_TO_RESEND[kind]);
  const lastSent = await lastCodeSentAt(deps.db, user.id, kind);
  if (lastSent) {
    const waitSeconds = Math.ceil((Date.parse(lastSent) + RESEND_COOLDOWN_SECONDS * 1000 - deps.clock.now().getTime()) / 1000);
    if (waitSeconds > 0) throw tooManyRequests(`Please wait ${waitSeconds} seconds before asking for a new code.`);
  }
  await sendCode(deps, user, kind);
}
