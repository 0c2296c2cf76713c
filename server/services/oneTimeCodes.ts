// One-time codes (DESIGN.md section 7): 6 digits, stored hashed, valid 10 minutes, single use,
// void after 5 wrong tries; issuing a new code voids the older ones of the same purpose.
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { randomCode, randomToken, sha256 } from './secrets.js';

export type CodePurpose = 'login' | 'register' | 'reset' | 'reset_grant';

export const CODE_TTL_MINUTES = 10;
export const MAX_CODE_ATTEMPTS = 5;

async function voidOpen(db: Knex | Knex.Transaction, clock: Clock, userId: number, purpose: CodePurpose) {
  await db('one_time_codes')
    .where({ user_id: userId, purpose })
    .whereNull('consumed_at')
    .update({ consumed_at: clock.now().toISOString() });
}

async function store(db: Knex | Knex.Transaction, clock: Clock, userId: number, purpose: CodePurpose, secret: string, ttlMinutes: number) {
  await voidOpen(db, clock, userId, purpose);
  const now = clock.now();
  await db('one_time_codes').insert({
    user_id: userId,
    purpose,
    code_hash: sha256(`${purpose}:${secret}`),
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + ttlMinutes * 60_000).toISOString(),
    attempts: 0,
  });
}

/** Issues a fresh 6-digit code and returns it (to be e-mailed, never logged). */
export async function issueCode(db: Knex | Knex.Transaction, clock: Clock, userId: number, purpose: Exclude<CodePurpose, 'reset_grant'>): Promise<string> {
  const code = randomCode();
  await store(db, clock, userId, purpose, code, CODE_TTL_MINUTES);
  return code;
}

/** Issues a long random grant token (e.g. the password-reset grant kept in a cookie). */
export async function issueGrant(db: Knex | Knex.Transaction, clock: Clock, userId: number, ttlMinutes = CODE_TTL_MINUTES): Promise<string> {
  const token = randomToken();
  await store(db, clock, userId, 'reset_grant', token, ttlMinutes);
  return token;
}

export type CodeCheck = 'ok' | 'wrong' | 'expired' | 'none';

/**
 * Checks `secret` against the newest open code of the purpose and consumes it when right. A wrong try
 * counts; the fifth wrong try voids the code.
 */
export async function consumeCode(db: Knex | Knex.Transaction, clock: Clock, userId: number, purpose: CodePurpose, secret: string): Promise<CodeCheck> {
  const now = clock.now().toISOString();
  const open = await db('one_time_codes')
    .where({ user_id: userId, purpose })
    .whereNull('consumed_at')
    .orderBy('id', 'desc')
    .first(['id', 'code_hash', 'expires_at', 'attempts']);
  if (!open) return 'none';
  if (open.expires_at <= now) {
    await db('one_time_codes').where({ id: open.id }).update({ consumed_at: now });
    return 'expired';
  }
  if (open.code_hash === sha256(`${purpose}:${secret.trim()}`)) {
    const consumed = await db('one_time_codes').where({ id: open.id }).whereNull('consumed_at').update({ consumed_at: now });
    return consumed === 1 ? 'ok' : 'none';
  }
  const attempts = Number(open.attempts) + 1;
  await db('one_time_codes')
    .where({ id: open.id })
    .update({ attempts, consumed_at: attempts >= MAX_CODE_ATTEMPTS ? now : null });
  return 'wrong';
}

/** When the newest code of the purpose was sent (for the resend cooldown). */
export async function lastCodeSentAt(db: Knex | Knex.Transaction, userId: number, purpose: CodePurpose): Promise<string | undefined> {
  const row = await db('one_time_codes').where({ user_id: userId, purpose }).orderBy('id', 'desc').first('created_at');
  return row?.created_at;
}

/** Whether an unused, unexpired code of the purpose is waiting (e.g. a login between password and code). */
export async function hasOpenCode(db: Knex | Knex.Transaction, clock: Clock, userId: number, purpose: CodePurpose): Promise<boolean> {
  const open = await db('one_time_codes')
    .where({ user_id: userId, purpose })
    .whereNull('consumed_at')
    .where('expires_at', '>', clock.now().toISOString())
    .first('id');
  return Boolean(open);
}
