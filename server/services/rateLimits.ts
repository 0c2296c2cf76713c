// Rate limits on the account calls (DESIGN.md section 7), kept in the database (table rate_limits) so
// every server instance counts the same attempts. Fixed windows: a counter per key and window start.
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { tooManyRequests } from '../errors.js';
import { sha256 } from './secrets.js';

export interface Limit {
  max: number;
  windowMinutes: number;
}

export interface LimitPolicy {
  /** Names the counters and, in the refusal, what was counted ('login attempts'). */
  name: string;
  what: string;
  perIp: Limit;
  perIdentifier: Limit;
  /** 'failures': an attempt that succeeds is given back, so only failures use up the allowance. */
  counts: 'all' | 'failures';
}

/**
 * The limits. Guessing is bounded per account (identifier) and per address (IP); the per-address
 * limits are higher because offices share one address. Calls that send mail count every attempt.
 */
export const LIMITS = {
  login: { name: 'login', what: 'login attempts', perIp: { max: 50, windowMinutes: 15 }, perIdentifier: { max: 10, windowMinutes: 15 }, counts: 'failures' },
  codeCheck: { name: 'code', what: 'code checks', perIp: { max: 50, windowMinutes: 15 }, perIdentifier: { max: 10, windowMinutes: 15 }, counts: 'failures' },
  checkUser: { name: 'check-user', what: 'e-mail checks', perIp: { max: 20, windowMinutes: 15 }, perIdentifier: { max: 5, windowMinutes: 15 }, counts: 'all' },
  register: { name: 'register', what: 'registrations', perIp: { max: 20, windowMinutes: 60 }, perIdentifier: { max: 5, windowMinutes: 60 }, counts: 'all' },
  resend: { name: 'resend', what: 'code requests', perIp: { max: 20, windowMinutes: 15 }, perIdentifier: { max: 5, windowMinutes: 15 }, counts: 'all' },
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
  /** E-mail or username the attempt is about; counted under its hash, so no address is stored. */
  identifier?: string;
}

/** Runs `work` as one attempt under `policy`: refused with 429 once the client's or the account's allowance is used up. */
export async function limited<T>(deps: { db: Knex; clock: Clock }, policy: LimitPolicy, attempt: Attempt, work: () => Promise<T>): Promise<T> {
  const hits = [await hit(deps.db, deps.clock, policy.perIp, `${policy.name}:ip:${attempt.ip}`, policy.what)];
  if (attempt.identifier) {
    const id = sha256(attempt.identifier.trim().toLowerCase());
    hits.push(await hit(deps.db, deps.clock, policy.perIdentifier, `${policy.name}:id:${id}`, policy.what));
  }
  const result = await work();
  if (policy.counts === 'failures') await giveBack(deps.db, hits);
  return result;
}
