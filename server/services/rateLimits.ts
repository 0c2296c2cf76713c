// Rate limits on the account calls (DESIGN.md section 7), kept in the database (table rate_limits) so
// every server instance counts the same attempts. Fixed windows: a counter per key and window start.
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { tooManyRequests } from '../errors.js';
import { sha256 } from './secrets.js';
import { findUserByIdentifier } from './users.js';

export interface Limit {
  max: number;
  windowMinutes: number;
}

export interface LimitPolicy {
  /** Names the counters and, in the refusal, what was counted ('login attempts'). */
  name: string;
  what: string;
  /** Every attempt from one address, whatever the account. */
  perIp: Limit;
  /** Every attempt on one account, from anywhere. */
  perAccount: Limit;
  /** Attempts on one account from one address: the tight bound on guessing a password or code. */
  perAccountAndIp?: Limit;
  /** 'failures': an attempt that succeeds is given back, so only failures use up the allowance. */
  counts: 'all' | 'failures';
}

/**
 * The limits. Guessing a password or code is bounded per account and address (10 failures in 15
 * minutes), per address (50; offices share one) and per account from anywhere (100): a stranger at
 * one address cannot lock the owner out, and a spread-out attack still meets the account-wide bound.
 * Calls that send mail count every attempt, per address and per recipient account.
 * An account is counted under its id, so its e-mail and its username share one allowance.
 */
const GUESSING = {
  perIp: { max: 50, windowMinutes: 15 },
  perAccount: { max: 100, windowMinutes: 15 },
  perAccountAndIp: { max: 10, windowMinutes: 15 },
  counts: 'failures',
} as const;

export const LIMITS = {
  login: { name: 'login', what: 'login attempts', ...GUESSING },
  codeCheck: { name: 'code', what: 'code checks', ...GUESSING },
  checkUser: { name: 'check-user', what: 'e-mail checks', perIp: { max: 20, windowMinutes: 15 }, perAccount: { max: 5, windowMinutes: 15 }, counts: 'all' },
  register: { name: 'register', what: 'registrations', perIp: { max: 20, windowMinutes: 60 }, perAccount: { max: 5, windowMinutes: 60 }, counts: 'all' },
  resend: { name: 'resend', what: 'code requests', perIp: { max: 20, windowMinutes: 15 }, perAccount: { max: 5, windowMinutes: 15 }, counts: 'all' },
  // Signing (release, amendment) re-enters the password: guessed like a login.
  signature: { name: 'signature', what: 'signature attempts', ...GUESSING },
  // Public verification pages: generous, but no enumeration of tokens.
  verify: { name: 'verify', what: 'verification requests', perIp: { max: 60, windowMinutes: 15 }, perAccount: { max: 60, windowMinutes: 15 }, counts: 'all' },
} as const satisfies Record<string, LimitPolicy>;

// Rows of windows older than this are deleted as new attempts arrive, so the table stays small.
const KEEP_MS = 24 * 60 * 60_000;

interface Hit {
  key: string;
  windowStart: string;
}

/**
 * Counts one attempt of `key` in the current window and refuses it (429) when the window now holds
 * more than `limit.max`. The increment is one atomic upsert, so parallel attempts cannot slip through.
 */
async function hit(db: Knex, clock: Clock, limit: Limit, key: string, what: string): Promise<Hit> {
  const now = clock.now().getTime();
  const windowMs = limit.windowMinutes * 60_000;
  const start = Math.floor(now / windowMs) * windowMs;
  const windowStart = new Date(start).toISOString();
  await db('rate_limits').where('window_start', '<', new Date(now - KEEP_MS).toISOString()).delete();
  const [row] = await db('rate_limits')
    .insert({ key, window_start: windowStart, count: 1 })
    .onConflict(['key', 'window_start'])
    .merge({ count: db.raw('?? + 1', ['rate_limits.count']) })
    .returning('count');
  if (Number(row.count) > limit.max) {
    const minutes = Math.max(1, Math.ceil((start + windowMs - now) / 60_000));
    throw tooManyRequests(`Too many ${what}. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
  }
  return { key, windowStart };
}

async function giveBack(db: Knex, hits: Hit[]): Promise<void> {
  for (const h of hits) {
    await db('rate_limits').where({ key: h.key, window_start: h.windowStart }).decrement('count', 1);
  }
}

export interface Attempt {
  ip: string;
  /** E-mail or username the attempt is about. */
  identifier?: string;
}

/**
 * The counter name of the account `identifier` names: its id, so e-mail and username count together;
 * for no account, a hash of the identifier, so no typed address is stored.
 */
async function accountKey(db: Knex, identifier: string): Promise<string> {
  const user = await findUserByIdentifier(db, identifier);
  return user ? `user:${user.id}` : `id:${sha256(identifier.trim().toLowerCase())}`;
}

/** Runs `work` as one attempt under `policy`: refused with 429 once the address's or the account's allowance is used up. */
export async function limited<T>(deps: { db: Knex; clock: Clock }, policy: LimitPolicy, attempt: Attempt, work: () => Promise<T>): Promise<T> {
  const count = (limit: Limit, key: string) => hit(deps.db, deps.clock, limit, `${policy.name}:${key}`, policy.what);
  const hits = [await count(policy.perIp, `ip:${attempt.ip}`)];
  if (attempt.identifier) {
    const account = await accountKey(deps.db, attempt.identifier);
    if (policy.perAccountAndIp) hits.push(await count(policy.perAccountAndIp, `${account}:ip:${attempt.ip}`));
    hits.push(await count(policy.perAccount, account));
  }
  const result = await work();
  if (policy.counts === 'failures') await giveBack(deps.db, hits);
  return result;
}
