// Server sessions (DESIGN.md section 7): an opaque random token for the cookie, only its hash stored,
// with an idle and an absolute expiry. Kept in the database so several instances share them.
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { USER_COLUMNS, toUser, type User, type UserRow } from './users.js';
import { SESSION_DATA, type ReadCache } from './readCache.js';
import { randomToken, sha256 } from './secrets.js';

export interface SessionPolicy {
  idleMinutes: number;
  maxHours: number;
}

const minutes = (n: number) => n * 60_000;
// Refresh last_seen_at at most once a minute, not on every call.
const TOUCH_EVERY_MS = 60_000;

export async function createSession(db: Knex, clock: Clock, policy: SessionPolicy, userId: number): Promise<{ token: string; expiresAt: string }> {
  const token = randomToken();
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + minutes(policy.maxHours * 60)).toISOString();
  await db('sessions').insert({
    token_hash: sha256(token),
    user_id: userId,
    created_at: now.toISOString(),
    last_seen_at: now.toISOString(),
    expires_at: expiresAt,
  });
  return { token, expiresAt };
}

interface SessionRow extends Omit<UserRow, 'password_hash'> {
  session_id: number;
  last_seen_at: string;
  expires_at: string;
}

/** A session as every call checks it: its times as numbers and its user built once, not per call. */
interface Session {
  id: number;
  lastSeenMs: number;
  expiresMs: number;
  user: Readonly<User>;
}

const sessionOf = (row: SessionRow): Session => ({
  id: row.session_id,
  lastSeenMs: Date.parse(row.last_seen_at),
  expiresMs: Date.parse(row.expires_at),
  user: Object.freeze(toUser(row)),
});

/** The session with its user, as read; cached while sessions and people are unchanged. */
async function sessionFor(db: Knex, token: string, cache?: ReadCache): Promise<Session | undefined> {
  const tokenHash = sha256(token);
  const key = `session:${tokenHash}`;
  const versions = await cache?.versions();
  const cached = versions && cache!.get<Session>(key, versions);
  if (cached) return cached;
  const row: SessionRow | undefined = await db('sessions as s')
    .join('users as u', 'u.id', 's.user_id')
    .where('s.token_hash', tokenHash)
    .first(['s.id as session_id', 's.last_seen_at', 's.expires_at', ...USER_COLUMNS.map((c) => `u.${c}`)]);
  if (!row) return undefined;
  const session = sessionOf(row);
  if (versions) cache!.set(key, SESSION_DATA, versions, session, 1024);
  return session;
}

/** The active user of a session token, or undefined when the session is unknown, expired or the user inactive. */
export async function resolveSession(db: Knex, clock: Clock, policy: SessionPolicy, token: string, cache?: ReadCache): Promise<User | undefined> {
  const session = await sessionFor(db, token, cache);
  if (!session) return undefined;
  const now = clock.now().getTime();
  if (now >= session.lastSeenMs + minutes(policy.idleMinutes) || now >= session.expiresMs || session.user.deletionStatus !== 'ACTIVE') {
    await db('sessions').where({ id: session.id }).delete();
    return undefined;
  }
  // The update moves the sessions version, which makes the cached session stale: the next call reads
  // the new time. It moves no data version, so no answer goes stale. Only a row not refreshed within
  // the minute is written: the calls that saw the same stale time at once (a screen's several calls,
  // either instance) then write it once, and on PostgreSQL wait for one commit, not for each other's.
  if (now - session.lastSeenMs > TOUCH_EVERY_MS) {
    await db('sessions')
      .where({ id: session.id })
      .where('last_seen_at', '<', new Date(now - TOUCH_EVERY_MS).toISOString())
      .update({ last_seen_at: new Date(now).toISOString() });
  }
  return session.user;
}

export async function endSession(db: Knex, token: string): Promise<void> {
  await db('sessions').where({ token_hash: sha256(token) }).delete();
}

export async function endAllSessionsOf(db: Knex | Knex.Transaction, userId: number): Promise<void> {
  await db('sessions').where({ user_id: userId }).delete();
}
