import path from 'node:path';
import type { Command } from 'commander';
import { mailState, mailStates, outboxStatus, requeueFailedMail } from '../../server/db/outbox.js';
import type { MailAttempt } from '../../server/mail/outboxWorker.js';
import { AbortError, UsageError, info, out, withRuntime, type Runtime } from '../runtime.js';

interface RetryOptions {
  id?: string;
  allFailed?: boolean;
  now?: boolean;
  json?: boolean;
}

export function registerMail(command: Command): void {
  const mail = command
    .addHelpText('after', '\nExamples:\n  $ labctl mail status\n  $ labctl mail retry --all-failed\n  $ labctl mail retry --id 42\n  $ labctl mail retry --all-failed --now');

  mail
    .command('status')
    .description('count mail by state, with the oldest waiting mail and the last error')
    .option('--json', 'machine-readable output')
    .action((opts: { json?: boolean }) =>
      withRuntime(async (rt) => {
        const status = await outboxStatus(rt.db);
        if (opts.json) {
          out(JSON.stringify(status));
          return;
        }
        out(`pending  ${status.counts.pending}`);
        out(`sent     ${status.counts.sent}`);
        out(`failed   ${status.counts.failed}`);
        out(`oldest pending: ${status.oldestPendingAt ?? '-'}`);
        const e = status.lastError;
        out(`last error: ${e ? `mail ${e.id} to ${e.to} (${e.subject}), ${e.attempts} attempts: ${e.error}` : '-'}`);
      }),
    );

  mail
    .command('retry')
    .description("put failed mail (given up after its attempts) back in the queue; the running server's mail worker sends it (or --now)")
    .option('--id <n>', 'one failed mail, by the id `mail status` names')
    .option('--all-failed', 'every failed mail')
    .option('--now', "send it now, through the outbox worker with SMTP_URL and MAIL_FROM (the server's env file), reporting each mail")
    .option('--json', 'print {"requeued"}; with --now {"requeued", "mails": [{"id", "to", "subject", "state", "error"}]}')
    .addHelpText(
      'after',
      '\nWith --now, run it with the settings of the server (its env file), so the mail leaves as the server would send it:\n' +
        '  $ (set -a; . /etc/lab/lab.env; set +a; labctl mail retry --all-failed --now)\n' +
        'Without SMTP_URL it refuses: mail never leaves through a shell\'s own settings (docs/deploy.md section 5).',
    )
    .action((opts: RetryOptions) =>
      withRuntime(
        async (rt) => {
          if (Boolean(opts.id) === Boolean(opts.allFailed)) throw new UsageError('Pass either --id <n> or --all-failed.');
          const id = opts.id === undefined ? undefined : Number(opts.id);
          if (id !== undefined && !(Number.isSafeInteger(id) && id > 0)) throw new UsageError(`--id must be a mail id (a positive whole number); got ${opts.id}.`);
          if (id !== undefined) {
            const state = await mailState(rt.db, id);
            if (!state) throw new AbortError(`There is no mail ${id}.`);
            if (state !== 'failed') throw new AbortError(`Mail ${id} is ${state}, not failed; only failed mail is retried by hand.`);
          }
          const ids = await requeueFailedMail(rt.db, id);
          if (!opts.now) {
            // Only queued: the server sends it with its own SMTP settings, as it sends all mail.
            if (opts.json) out(JSON.stringify({ requeued: ids.length }));
            else info(`Put ${ids.length} mail back in the queue; the running server (labctl serve) sends it within seconds. See labctl mail status.`);
            return;
          }
          await sendNow(rt, ids, Boolean(opts.json));
        },
        { refuse: (config) => (opts.now && !config.smtpUrl ? NO_SMTP : undefined) },
      ),
    );
}

const NO_SMTP =
  'labctl mail retry --now sends through the SMTP server of SMTP_URL, and none is set here. Run it with the server\'s settings ' +
  '(set -a; . /etc/lab/lab.env; set +a), or leave out --now: the running server (labctl serve) sends requeued mail within seconds.';

/**
 * --now: the requeued mails go out through the outbox worker's own code (claimed, sent with the
 * same Message-ID, marked sent and audited, or scheduled for another attempt), with SMTP_URL and
 * MAIL_FROM of this environment, which must be the server's. Each mail is reported.
 */
async function sendNow(rt: Runtime, ids: number[], json: boolean): Promise<void> {
  const [{ createMailer }, { deliverDueMail }] = await Promise.all([import('../../server/mail/mailer.js'), import('../../server/mail/outboxWorker.js')]);
  const { config } = rt;
  // The per-mail report says why a mail was not sent; with --json the worker's own log line stays off stderr.
  const logger = json ? rt.logger.child({}, { level: 'silent' }) : rt.logger;
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox'), demo: false, logger });
  const attempts = new Map<number, MailAttempt>();
  try {
    if (ids.length > 0) await deliverDueMail({ db: rt.db, mailer, logger, clock: rt.clock, only: ids, onAttempt: (a) => attempts.set(a.id, a) });
  } finally {
    mailer.close();
  }
  const mails = (await mailStates(rt.db, ids)).map((m) => {
    const attempt = attempts.get(m.id);
    // A mail this command did not attempt was claimed by a running server's worker meanwhile.
    return { id: m.id, to: m.to, subject: m.subject, state: m.state, sentNow: attempt?.sent ?? false, error: attempt && !attempt.sent ? attempt.error ?? null : null };
  });
  const failed = mails.filter((m) => m.error !== null).length;
  if (json) out(JSON.stringify({ requeued: ids.length, mails }));
  else {
    for (const m of mails) {
      const what = m.sentNow ? 'sent' : m.error !== null ? `not sent: ${m.error} (queued again: the server retries it)` : `${m.state} (taken by the running server)`;
      out(`mail ${m.id} to ${m.to} (${m.subject}): ${what}`);
    }
    if (ids.length === 0) info('No failed mail to send.');
  }
  if (failed > 0) throw new AbortError(`${failed} of ${ids.length} mails not sent; see labctl mail status for the last error.`);
  if (!json && ids.length > 0) info(`Sent ${mails.filter((m) => m.sentNow).length} of ${ids.length} mails.`);
}
