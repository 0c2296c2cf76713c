// Queries of the mail outbox (migration 006). A mail is queued in the caller's transaction, so it
// exists exactly when the change that causes it was committed. Workers claim due rows with a guarded
// UPDATE (`... where claimed_until_ms < now`): on PostgreSQL a second instance racing for the same row
// waits for the first one's row lock, re-reads the row, finds it claimed and skips it; SQLite runs
// one writer at a time. So each mail is sent by one instance only.
import { EventEmitter } from 'node:events';
import { createHash, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { isPostgres } from './knex.js';
import { slices } from './sql.js';

/** What the outbox stores of a message (the shape of the mail module's MailMessage). */
export interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  demoHint?: string;
  /** Names the message in its Message-ID, the same on every attempt (set when claimed from the outbox). */
  messageKey?: string;
}

/** What a mail is about: a request's client mail is audited as 'mail.sent' on the request once sent. */
export interface MailOrigin {
  requestId: number;
  actorUserId: number;
}

export interface ClaimedMail extends OutboxMessage {
  id: number;
  origin: MailOrigin | null;
  /** Attempts before this one. */
  attempts: number;
  claim: string;
  /** The same for every attempt of this row: the left part of its Message-ID (see messageKey). */
  messageKey: string;
}

/**
 * `<id>-<hash of the row's id, creation time and recipient>`: derived from the row, so every attempt
 * sends the same Message-ID and a receiver can drop a copy that arrived twice (a send that reached
 * the server but whose answer was lost is retried). The hash keeps ids of another database (a
 * restored backup, a test) from colliding.
 */
export function messageKey(id: number, createdAt: string, recipient: string): string {
  return `${id}-${createHash('sha256').update(`${id}|${createdAt}|${recipient}`).digest('hex').slice(0, 16)}`;
}

export type OutboxState = 'pending' | 'sent' | 'failed';

// Wakes the outbox workers of this process right after a commit that queued mail; workers of other
// instances find the row on their next poll.
const queued = new EventEmitter();
queued.setMaxListeners(0);

/** Calls `listener` after each commit that queued mail in this process; returns the unsubscribe. */
export function onMailQueued(listener: () => void): () => void {
  queued.on('queued', listener);
  return () => queued.off('queued', listener);
}

// Commits that queued mail in this process so far. A count, not an AsyncLocalStorage marking the
// call that queued: once one AsyncLocalStorage has run, Node keeps promise hooks on for every promise
// of the process, which cost a cached read a seventh of its time.
let mailCommits = 0;

/**
 * Runs `work` and tells whether mail was committed to the outbox meanwhile (the API sends it before
 * answering). The mail may be another call's committed at the same time; the caller then waits for
 * a send it did not need, which is rare and bounded, and never misses its own.
 */
export async function watchQueuedMail(work: () => Promise<void>): Promise<boolean> {
  const before = mailCommits;
  await work();
  return mailCommits !== before;
}

/** Queues `mail` in `trx`; it is sent once the transaction commits (and never if it rolls back). */
export async function queueMail(trx: Knex.Transaction, mail: OutboxMessage, origin?: MailOrigin): Promise<void> {
  await mailInsert(trx, mail, origin);
}

/** queueMail's insert, to run with the change's other writes (runTogether, sql.ts): run it in `trx`. */
export function mailInsert(trx: Knex.Transaction, mail: OutboxMessage, origin?: MailOrigin): Knex.QueryBuilder {
  trx.executionPromise.then(mailQueued, () => undefined);
  return trx('outbox').insert(mailRow(mail, origin));
}

/** The outbox row of `mail`, pending from now; for a writer that stores it itself and then calls mailQueued. */
export function mailRow(mail: OutboxMessage, origin?: MailOrigin): Record<string, unknown> {
  const now = Date.now();
  return {
    request_id: origin?.requestId ?? null,
    actor_user_id: origin?.actorUserId ?? null,
    recipient: mail.to,
    subject: mail.subject,
    text_body: mail.text,
    html_body: mail.html,
    demo_hint: mail.demoHint ?? null,
    state: 'pending',
    attempts: 0,
    next_attempt_ms: now,
    claimed_until_ms: 0,
    created_at: new Date(now).toISOString(),
  };
}

/** Tells this process's outbox workers that a commit queued mail. */
export function mailQueued(): void {
  mailCommits += 1;
  queued.emit('queued');
}

/** A claimed mail's row, as PostgreSQL (bigint ids as text) or SQLite returns it. */
interface ClaimedRow {
  id: number | string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  demo_hint: string | null;
  attempts: number | string;
  request_id: number | string | null;
  actor_user_id: number | string | null;
  created_at: string;
}

/** Claims up to `limit` due mails (of `only` when given) for `leaseMs` under a fresh claim token, oldest first. */
export async function claimDueMail(db: Knex, worker: string, limit: number, leaseMs: number, only?: readonly number[]): Promise<ClaimedMail[]> {
  const now = Date.now();
  const claim = `${worker}/${randomUUID()}`;
  const due = db('outbox')
    .select('id')
    .where('state', 'pending')
    .where('next_attempt_ms', '<=', now)
    .where('claimed_until_ms', '<', now)
    .orderBy('id')
    .limit(limit);
  if (only) due.whereIn('id', only);
  // On SQLite, read first: an idle poll must not ask for the write lock, whose wait (while another
  // process writes, e.g. a labctl import) would hold the server's one connection from every other
  // call. On PostgreSQL the claim alone is one round trip, where a pass runs for every commit that
  // queued mail: the read would be a third of a pass's statements.
  if (!isPostgres(db) && !(await due.clone().first())) return [];
  const claimed: ClaimedRow[] = await db('outbox')
    .whereIn('id', due)
    .where('state', 'pending')
    .where('claimed_until_ms', '<', now)
    .update({ claimed_by: claim, claimed_until_ms: now + leaseMs })
    .returning(['id', 'recipient', 'subject', 'text_body', 'html_body', 'demo_hint', 'attempts', 'request_id', 'actor_user_id', 'created_at']);
  // Oldest first, as they were due: an UPDATE returns its rows in no set order.
  const rows = claimed.sort((a, b) => Number(a.id) - Number(b.id));
  return rows.map((r) => ({
    id: Number(r.id),
    origin: r.request_id === null ? null : { requestId: Number(r.request_id), actorUserId: Number(r.actor_user_id) },
    to: r.recipient,
    subject: r.subject,
    text: r.text_body,
    html: r.html_body,
    demoHint: r.demo_hint ?? undefined,
    attempts: Number(r.attempts),
    claim,
    messageKey: messageKey(Number(r.id), r.created_at, r.recipient),
  }));
}

/**
 * Marks claimed mails sent. The bodies are blanked: they may hold a one-time code, which the
 * database otherwise keeps only hashed. Only the holder of the claim may do it. One commit, and a
 * statement per claim and one for the audit entries, for the mails of a pass: on SQLite a commit is
 * an fsync, and the server's calls wait for its one connection.
 */
export async function markMailSent(db: Knex, mails: readonly ClaimedMail[], at: Date = new Date()): Promise<void> {
  const now = at.toISOString();
  await db.transaction(async (trx) => {
    const marked = new Set<number>();
    for (const claim of new Set(mails.map((m) => m.claim))) {
      for (const chunk of slices(mails.filter((m) => m.claim === claim))) {
        const rows: Array<{ id: number | string }> = await trx('outbox')
          .whereIn('id', chunk.map((m) => m.id))
          .where('claimed_by', claim)
          .update({ state: 'sent', attempts: trx.raw('attempts + 1'), sent_at: now, text_body: '', html_body: '', demo_hint: null, claimed_by: null, claimed_until_ms: 0 })
          .returning('id');
        for (const row of rows) marked.add(Number(row.id));
      }
    }
    const audited = mails.flatMap((m) => (m.origin && marked.has(m.id) ? [mailSentRow(m, m.origin, now)] : []));
    for (const chunk of slices(audited)) await trx('audit_log').insert(chunk);
  });
}

/** The audit row that shows a request's mail on its timeline once it really went out (services/audit.ts). */
const mailSentRow = (mail: ClaimedMail, origin: MailOrigin, at: string) => ({
  at, actor_user_id: origin.actorUserId, action: 'mail.sent', request_id: origin.requestId, details: JSON.stringify({ to: mail.to, subject: mail.subject }), ip: null,
});

/** Records a failed attempt: tried again at `retryAtMs`, or given up (state failed) when null. */
export async function markMailFailed(db: Knex, mail: ClaimedMail, error: string, retryAtMs: number | null): Promise<void> {
  await db('outbox')
    .where({ id: mail.id, claimed_by: mail.claim })
    .update({
      state: retryAtMs === null ? 'failed' : 'pending',
      attempts: mail.attempts + 1,
      next_attempt_ms: retryAtMs ?? 0,
      last_error: error.slice(0, 2000),
      claimed_by: null,
      claimed_until_ms: 0,
    });
}

export interface OutboxStatus {
  counts: Record<OutboxState, number>;
  /** When the oldest mail still waiting was queued, or null. */
  oldestPendingAt: string | null;
  /** The newest error of a mail not sent yet, or null. */
  lastError: { id: number; to: string; subject: string; attempts: number; error: string } | null;
}

export async function outboxStatus(db: Knex): Promise<OutboxStatus> {
  const counts: Record<OutboxState, number> = { pending: 0, sent: 0, failed: 0 };
  const rows: { state: OutboxState; n: number | string }[] = await db('outbox').select('state').count({ n: '*' }).groupBy('state');
  for (const row of rows) {
    counts[row.state] = Number(row.n);
  }
  const oldest = await db('outbox').where('state', 'pending').min({ at: 'created_at' }).first();
  const failing = await db('outbox')
    .whereNot('state', 'sent')
    .whereNotNull('last_error')
    .orderBy('id', 'desc')
    .first('id', 'recipient', 'subject', 'attempts', 'last_error');
  return {
    counts,
    oldestPendingAt: oldest?.at ?? null,
    lastError: failing
      ? { id: Number(failing.id), to: failing.recipient, subject: failing.subject, attempts: Number(failing.attempts), error: failing.last_error }
      : null,
  };
}

/** Puts failed mails (one by id, or all) back in the queue with fresh attempts; returns their ids, oldest first. */
export async function requeueFailedMail(db: Knex, id?: number): Promise<number[]> {
  return db.transaction(async (trx) => {
    const query = trx('outbox').where('state', 'failed').orderBy('id');
    if (id !== undefined) query.where('id', id);
    const ids = (await query.select('id')).map((r: { id: number | string }) => Number(r.id));
    if (ids.length > 0) {
      await trx('outbox').whereIn('id', ids).where('state', 'failed').update({ state: 'pending', attempts: 0, next_attempt_ms: Date.now(), claimed_by: null, claimed_until_ms: 0 });
    }
    return ids;
  });
}

/** Where some mails stand: state, attempts and last error per id. */
export async function mailStates(db: Knex, ids: readonly number[]): Promise<Array<{ id: number; to: string; subject: string; state: OutboxState; error: string | null }>> {
  if (ids.length === 0) return [];
  const rows = await db('outbox').whereIn('id', ids).orderBy('id').select('id', 'recipient', 'subject', 'state', 'last_error');
  return rows.map((r) => ({ id: Number(r.id), to: r.recipient, subject: r.subject, state: r.state as OutboxState, error: r.last_error ?? null }));
}

/** The state of one mail, or undefined when there is none. */
export async function mailState(db: Knex, id: number): Promise<OutboxState | undefined> {
  const row = await db('outbox').where('id', id).first('state');
  return row?.state as OutboxState | undefined;
}
