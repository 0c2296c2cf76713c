// Sends the mail of the outbox (server/db/outbox.ts): claims due rows, hands each to the mailer, and
// on failure schedules the next attempt with exponential backoff, giving up after `maxAttempts`
// (`labctl mail retry` puts such mail back). An SMTP outage therefore only delays mail.
import os from 'node:os';
import type { Knex } from 'knex';
import { claimDueMail, markMailFailed, markMailSent, onMailQueued, watchQueuedMail } from '../db/outbox.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { Mailer } from './mailer.js';

export interface OutboxWorkerOptions {
  db: Knex;
  mailer: Mailer;
  logger: Logger;
  /** Stamps the 'mail.sent' audit entry of a request's mail (the app's clock; default the system's). */
  clock?: Clock;
  /** Names this process in claims (default host:pid). */
  instance?: string;
  /** How often to look for mail queued by other instances or due for a retry. */
  pollMs?: number;
  /** Delay after the first failure; doubled after each further one up to `retryMaxMs`. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  maxAttempts?: number;
  /** How long a claim holds; longer than the mailer's own timeouts. */
  leaseMs?: number;
  /** Only these mails (`labctl mail retry --now`); every due mail when left out. */
  only?: readonly number[];
  /** Told of each attempt, sent or not (`labctl mail retry --now` reports them). */
  onAttempt?: (attempt: MailAttempt) => void;
}

export interface MailAttempt {
  id: number;
  to: string;
  subject: string;
  sent: boolean;
  /** Why not, when not sent. */
  error?: string;
  /** Not sent and given up (state failed) rather than queued for another attempt. */
  gaveUp?: boolean;
}

const DEFAULTS = { pollMs: 5_000, retryBaseMs: 30_000, retryMaxMs: 60 * 60_000, maxAttempts: 12, leaseMs: 5 * 60_000 };
const BATCH = 20;

/** Delay before attempt `attempts + 1`, after `attempts` failures. */
export const retryDelayMs = (attempts: number, baseMs: number, maxMs: number): number => Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));

/** Sends every mail due now (several batches); returns how many were sent. */
export async function deliverDueMail(options: OutboxWorkerOptions): Promise<number> {
  const o = { ...DEFAULTS, instance: `${os.hostname()}:${process.pid}`, ...options };
  let sent = 0;
  for (;;) {
    const batch = await claimDueMail(o.db, o.instance, BATCH, o.leaseMs, o.only);
    if (batch.length === 0) return sent;
    const delivered = [];
    const attempts: MailAttempt[] = [];
    for (const mail of batch) {
      try {
        await o.mailer.send(mail);
        delivered.push(mail);
        attempts.push({ id: mail.id, to: mail.to, subject: mail.subject, sent: true });
      } catch (err) {
        const attempt = mail.attempts + 1;
        const retryAt = attempt >= o.maxAttempts ? null : Date.now() + retryDelayMs(attempt, o.retryBaseMs, o.retryMaxMs);
        o.logger.warn({ err, outboxId: mail.id, to: mail.to, attempts: attempt, giveUp: retryAt === null }, 'mail not sent');
        const error = (err as Error).message ?? String(err);
        await markMailFailed(o.db, mail, error, retryAt);
        attempts.push({ id: mail.id, to: mail.to, subject: mail.subject, sent: false, error, gaveUp: retryAt === null });
      }
    }
    // A crash before this commit sends these again once their claim lapses, with the same Message-ID.
    if (delivered.length > 0) await markMailSent(o.db, delivered, o.clock?.now() ?? new Date());
    attempts.forEach((a) => o.onAttempt?.(a));
    sent += delivered.length;
    // A short batch took every mail due when it was claimed. Mail queued here since then starts a pass
    // of its own (startOutboxWorker), and other instances' mail is found by the next poll: another
    // claim now would be a round trip for nothing after almost every commit.
    if (batch.length < BATCH) return sent;
  }
}

export interface OutboxWorker {
  /** Sends the mail due now; resolves when a pass that started after this call has finished. */
  flush(): Promise<void>;
  /**
   * Runs `work` (an API call) and, when it committed mail, sends that mail before returning, waiting
   * at most `maxWaitMs`: the caller's answer then means the mail left, unless the mail server is down.
   */
  sendQueuedBy(work: () => Promise<void>, maxWaitMs?: number): Promise<void>;
  /** Finishes the current pass and stops. */
  stop(): Promise<void>;
}

/** Runs `deliverDueMail` at start, on every local commit that queued mail, and every `pollMs`. */
export function startOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const pollMs = options.pollMs ?? DEFAULTS.pollMs;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> | null = null;
  let following: Promise<void> | null = null;

  const pass = async () => {
    clearTimeout(timer);
    try {
      await deliverDueMail(options);
    } catch (err) {
      options.logger.error({ err }, 'outbox: could not read the queue');
    }
  };
  // One pass at a time; calls during a pass share the single pass queued after it.
  const run = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (!current) {
      current = pass().finally(() => {
        current = null;
        if (!stopped && !following) timer = setTimeout(run, pollMs);
      });
      return current;
    }
    following ??= current.then(() => {
      following = null;
      return run();
    });
    return following;
  };
  const unsubscribe = onMailQueued(() => void run());
  void run();
  return {
    flush: run,
    async sendQueuedBy(work, maxWaitMs = 5_000) {
      if (!(await watchQueuedMail(work))) return;
      let timeout: NodeJS.Timeout | undefined;
      await Promise.race([run(), new Promise<void>((resolve) => (timeout = setTimeout(resolve, maxWaitMs)))]);
      clearTimeout(timeout);
    },
    async stop() {
      stopped = true;
      unsubscribe();
      clearTimeout(timer);
      await current;
    },
  };
}
