// Rate limits on the account calls (DESIGN.md section 7), kept in the database (table rate_limits) so
// every server instance counts the same attempts. Fixed windows: a counter per key and window start.
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { AppError, tooManyRequests } from '../errors.js';
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
  perAccount?: Limit;
  /**
   * What the per-account bound does once reached. 'refuse' (the default): 429. 'conceal': the
   * attempt still runs, but a refusal of it (401) is answered as a success, so guesses past the bound
   * tell the guesser nothing, while the owner's right password still works: strangers at many
   * addresses slow nobody down and lock nobody out, and guessing stays bounded.
   */
  pastAccountBound?: 'refuse' | 'conceal';
  /** Attempts on one account from one address: the tight bound on guessing a password or code. */
  perAccountAndIp?: Limit;
  /** 'failures': an attempt that succeeds is given back, so only failures use up the allowance. */
  counts: 'all' | 'failures';
}

/**
 * The limits. Guessing a password or code is refused per account and address (10 failures in 15
 * minutes) and per address (50; offices share one), so no address, the owner's included, is held up
 * by what other addresses do. Only the per-account bound counts every address:
 * - passwords: past 100 failures on an account in 15 minutes, a login is no longer told whether its
 *   password was right ('conceal'): every password gets the "code sent" answer, and only the right one
 *   gets a code by e-mail. The owner logs in as always; a spread-out guesser learns nothing more.
 * - codes: no account-wide count. A code is void after 5 tries and codes go out only for the right
 *   password or at most 5 requests per account in 15 minutes, which already bounds code guessing.
 * Calls that send mail count every attempt, per address and per recipient account.
 * An account is counted under its id, so its e-mail and its username share one allowance.
 */
const GUESSING = {
  perIp: { max: 50, windowMinutes: 15 },
  perAccountAndIp: { max: 10, windowMinutes: 15 },
  counts: 'failures',
} as const;

export const LIMITS = {
  login: { name: 'login', what: 'login attempts', ...GUESSING, perAccount: { max: 100, windowMinutes: 15 }, pastAccountBound: 'conceal' },
  codeCheck: { name: 'code', what: 'code checks', ...GUESSING },
  checkUser: { name: 'check-user', what: 'e-mail checks', perIp: { max: 20, windowMinutes: 15 }, perAccount: { max: 5, windowMinutes: 15 }, counts: 'all' },
  register: { name: 'register', what: 'registrations', perIp: { max: 20, windowMinutes: 60 }, perAccount: { max: 5, windowMinutes: 60 }, counts: 'all' },
  resend: { name: 'resend', what: 'code requests', perIp: { max: 20, windowMinutes: 15 }, perAccount: { max: 5, windowMinutes: 15 }, counts: 'all' },
  // Signing (release, amendment) re-enters the password: guessed like a login.
  // Only the signed-in signer can try, so the account-wide bound refuses: no stranger can reach it.
  signature: { name: 'signature', what: 'signature attempts', ...GUESSING, perAccount: { max: 100, windowMinutes: 15 } },
  // Public verification pages: generous, but no enumeration of tokens.
  verify: { name: 'verify', what: 'verification requests', perIp: { max: 60, windowMinutes: 15 }, perAccount: { max: 60, windowMinutes: 15 }, counts: 'all' },
} as const satisfies Record<string, LimitPolicy>;

// Rows of windows older than this are deleted as new attempts arrive.
const KEEP_MS = 24 * 60 * 60_000;

interface Hit {
  key: string;
  windowStart: string;
  /** Whether the window now holds more than the limit allows. */
  over: boolean;
}

/**
 * Counts one attempt of `key` in the current window and, when the window now holds more than
 * `limit.max`, refuses it (429) or, with `refuse` false, says so. The increment is one atomic upsert,
 * so parallel attempts cannot slip through.
 */
async function hit(db: Knex, clock: Clock, limit: Limit, key: string, what: string, refuse = true): Promise<Hit> {
  const now = clock.now().getTime();
  const windowMs = limit.windowMinutes * 60_000;
  const start = Math.floor(now / windowMs) * windowMs;
  const windowStart = new Date(start).toISOString();
  const [row] = await db('rate_limits')
    .insert({ key, window_start: windowStart, count: 1 })
    .onConflict(['key', 'window_start'])
    .merge({ count: db.raw('?? + 1', ['rate_limits.count']) })
    .returning('count');
  const over = Number(row.count) > limit.max;
  if (over && refuse) {
    const minutes = Math.max(1, Math.ceil((start + windowMs - now) / 60_000));
    throw tooManyRequests(`Too many ${what}. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
  }
  return { key, windowStart, over };
}

/** Takes the attempt back from the windows it was counted in: one statement. */
async function giveBack(db: Knex, hits: Hit[]): Promise<void> {
  await db('rate_limits')
    .whereIn(['key', 'window_start'], hits.map((h) => [h.key, h.windowStart]))
    .decrement('count', 1);
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

/** Runs `work` under `policy`; resolves undefined when a refusal was concealed (see `limitedConcealing`). */
async function attemptUnder<T>(deps: { db: Knex; clock: Clock }, policy: LimitPolicy, attempt: Attempt, work: () => Promise<T>, concealable: boolean): Promise<{ value: T } | undefined> {
  const count = (limit: Limit, key: string, refuse = true) => hit(deps.db, deps.clock, limit, `${policy.name}:${key}`, policy.what, refuse);
  // Windows over a day old go as attempts arrive, once an attempt, so the table stays small.
  await deps.db('rate_limits').where('window_start', '<', new Date(deps.clock.now().getTime() - KEEP_MS).toISOString()).delete();
  const hits = [await count(policy.perIp, `ip:${attempt.ip}`)];
  let conceal = false;
  if (attempt.identifier) {
    const account = await accountKey(deps.db, attempt.identifier);
    if (policy.perAccountAndIp) hits.push(await count(policy.perAccountAndIp, `${account}:ip:${attempt.ip}`));
    if (policy.perAccount) {
      const concealing = concealable && policy.pastAccountBound === 'conceal';
      const accountHit = await count(policy.perAccount, account, !concealing);
      hits.push(accountHit);
      conceal = concealing && accountHit.over;
    }
  }
  let value: T;
  try {
    value = await work();
  } catch (err) {
    // The attempt stays counted as a failure; its caller answers as for a success.
    if (conceal && err instanceof AppError && err.code === 'unauthorized') return undefined;
    throw err;
  }
  if (policy.counts === 'failures') await giveBack(deps.db, hits);
  return { value };
}

/** Runs `work` as one attempt under `policy`: refused with 429 once the address's or the account's allowance is used up. */
export async function limited<T>(deps: { db: Knex; clock: Clock }, policy: LimitPolicy, attempt: Attempt, work: () => Promise<T>): Promise<T> {
  const outcome = await attemptUnder(deps, policy, attempt, work, false);
  if (!outcome) throw new Error('limited(): a refusal was concealed, which only limitedConcealing does');
  return outcome.value;
}

/**
 * Like `limited`, for a policy whose account bound is 'conceal' (the password step of login): past
 * that bound, a 401 of `work` resolves as a success would, so its caller gives the same answer to a
 * right and a wrong password. `work` must then act only on a right one (send the code).
 */
export async function limitedConcealing(deps: { db: Knex; clock: Clock }, policy: LimitPolicy, attempt: Attempt, work: () => Promise<unknown>): Promise<void> {
  await attemptUnder(deps, policy, attempt, work, true);
}
