// One-time codes (DESIGN.md section 7): 6 digits, stored as a keyed hash, valid 10 minutes, single
// use, void after 5 tries; issuing a new code voids the older ones of the same purpose.
// Codes stored by earlier versions as plain SHA-256 no longer validate: they expire within 10 minutes
// anyway, so the user just asks for a new one.
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { CODE_TTL_MINUTES } from '../domain/accountRules.js';
import { keyedHash, randomCode, randomToken, sameText } from './secrets.js';

export type CodePurpose = 'login' | 'register' | 'reset' | 'reset_grant';

export const MAX_CODE_ATTEMPTS = 5;

async function voidOpen(db: Knex | Knex.Transaction, clock: Clock, userId: number, purpose: CodePurpose) {
  await db('one_time_codes')
    .where({ user_id: userId, purpose })
    .whereNull('consumed_at')
    .update({ consumed_at: clock.now().toISOString() });
}

/** The database and clock, and the server secret that keys the code hashes (services/serverSecret.ts). */
export interface CodeDeps {
  db: Knex | Knex.Transaction;
  clock: Clock;
  codeKey: string;
}

const codeHash = (key: string, purpose: CodePurpose, secret: string) => keyedHash(key, `${purpose}:${secret}`);

async function store({ db, clock, codeKey }: CodeDeps, userId: number, purpose: CodePurpose, secret: string, ttlMinutes: number) {
  await voidOpen(db, clock, userId, purpose);
  const now = clock.now();
  await db('one_time_codes').insert({
    user_id: userId,
    purpose,
    code_hash: codeHash(codeKey, purpose, secret),
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + ttlMinutes * 60_000).toISOString(),
    attempts: 0,
  });
}

/** Issues a fresh 6-digit code and returns it (to be e-mailed, never logged). */
export async function issueCode(deps: CodeDeps, userId: number, purpose: Exclude<CodePurpose, 'reset_grant'>): Promise<string> {
  const code = randomCode();
  await store(deps, userId, purpose, code, CODE_TTL_MINUTES);
  return code;
}

/** Issues a long random grant token (e.g. the password-reset grant kept in a cookie). */
export async function issueGrant(deps: CodeDeps, userId: number, ttlMinutes = CODE_TTL_MINUTES): Promise<string> {
  const token = randomToken();
  await store(deps, userId, 'reset_grant', token, ttlMinutes);
  return token;
}

export type CodeCheck = 'ok' | 'wrong' | 'expired' | 'none';

/**
 * Checks `secret` against the newest open code of the purpose and consumes it when right. Every try,
 * right or wrong, first takes one of the code's MAX_CODE_ATTEMPTS in a single conditional UPDATE, so
 * parallel guesses cannot share a try: once they are used up the code is void, even for the right secret.
 */
export async function consumeCode({ db, clock, codeKey }: CodeDeps, userId: number, purpose: CodePurpose, secret: string): Promise<CodeCheck> {
  const now = clock.now().toISOString();
  const open = await db('one_time_codes')
    .where({ user_id: userId, purpose })
    .whereNull('consumed_at')
    .orderBy('id', 'desc')
    .first(['id', 'code_hash', 'expires_at']);
  if (!open) return 'none';
  if (open.expires_at <= now) {
    await db('one_time_codes').where({ id: open.id }).update({ consumed_at: now });
    return 'expired';
  }
  const stillOpen = db('one_time_codes').where({ id: open.id }).whereNull('consumed_at');
  const counted = await stillOpen.clone().where('attempts', '<', MAX_CODE_ATTEMPTS).increment('attempts', 1);
  if (counted !== 1) return 'none';
  if (sameText(open.code_hash, codeHash(codeKey, purpose, secret.trim()))) {
    const consumed = await stillOpen.clone().update({ consumed_at: now });
    return consumed === 1 ? 'ok' : 'none';
  }
  await stillOpen.clone().where('attempts', '>=', MAX_CODE_ATTEMPTS).update({ consumed_at: now });
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
