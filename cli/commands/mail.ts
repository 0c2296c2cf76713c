import type { Command } from 'commander';
import { mailState, outboxStatus, retryFailedMail } from '../../server/db/outbox.js';
import { AbortError, UsageError, info, out, withRuntime } from '../runtime.js';

interface RetryOptions {
  id?: string;
  allFailed?: boolean;
  json?: boolean;
}

export function registerMail(command: Command): void {
  const mail = command
    .addHelpText('after', '\nExamples:\n  $ labctl mail status\n  $ labctl mail retry --all-failed\n  $ labctl mail retry --id 42');

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
    .description("put failed mail (given up after its attempts) back in the queue; the running server's mail worker sends it")
    .option('--id <n>', 'one failed mail, by the id `mail status` names')
    .option('--all-failed', 'every failed mail')
    .option('--json', 'print {"requeued"}')
    .action((opts: RetryOptions) =>
      withRuntime(async (rt) => {
        if (Boolean(opts.id) === Boolean(opts.allFailed)) throw new UsageError('Pass either --id <n> or --all-failed.');
        const id = opts.id === undefined ? undefined : Number(opts.id);
        if (id !== undefined && !(Number.isSafeInteger(id) && id > 0)) throw new UsageError(`--id must be a mail id (a positive whole number); got ${opts.id}.`);
        if (id !== undefined) {
          const state = await mailState(rt.db, id);
          if (!state) throw new AbortError(`There is no mail ${id}.`);
          if (state !== 'failed') throw new AbortError(`Mail ${id} is ${state}, not failed; only failed mail is retried by hand.`);
        }
        // Only queued: the server sends it with its own SMTP settings, as it sends all mail.
        const requeued = await retryFailedMail(rt.db, id);
        if (opts.json) out(JSON.stringify({ requeued }));
        else info(`Put ${requeued} mail back in the queue; the running server (labctl serve) sends it within seconds. See labctl mail status.`);
      }),
    );
}
