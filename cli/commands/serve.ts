import type { Command } from 'commander';
import path from 'node:path';
import { createApp } from '../../server/app.js';
import { callDrain } from '../../server/http/middleware/drain.js';
import { describeDatabase } from '../../server/config.js';
import { markServing } from '../../server/db/sqliteRestore.js';
import { createMailer } from '../../server/mail/mailer.js';
import { startOutboxWorker } from '../../server/mail/outboxWorker.js';
import { seedDemoAccounts } from '../../server/services/demo.js';
import { AbortError, info, openRuntime, out } from '../runtime.js';
import { createReadCache } from '../../server/services/readCache.js';
import { recordPublicUrl } from '../../server/services/settings.js';

/** How long a stop waits for in-flight calls before cutting them. */
const SHUTDOWN_GRACE_MS = 10_000;

interface ServeOptions {
  port?: string;
  host?: string;
  demo?: boolean;
}

export function registerServe(command: Command): void {
  command
    .option('-p, --port <port>', 'port to listen on; 0 picks a free one (env PORT, default 3000)')
    .option('--host <host>', 'address to bind (env HOST, default 0.0.0.0)')
    .option('--demo', 'on an empty database, create one demo account per role and print them; show codes of outbox mail')
    .addHelpText('after', '\nExamples:\n  $ labctl serve --demo\n  $ DATABASE_URL=postgres://lab@db/lab labctl serve --port 8080')
    .action(async (opts: ServeOptions) => {
      const overrides = { PORT: opts.port, HOST: opts.host, DEMO: opts.demo ? 'true' : undefined };
      const rt = await openRuntime({ overrides, createDatabase: true, server: true });
      const { config, logger } = rt;
      const database = config.database;
      await recordPublicUrl(rt.db, rt.clock, config.publicUrl);
      const unmark = database.client === 'sqlite3' ? markServing(database.filename) : () => undefined;
      // The only sender of mail: what any instance or labctl command queued leaves through here.
      const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox'), demo: config.demo, logger, print: info });
      const outbox = startOutboxWorker({ db: rt.db, mailer, logger, clock: rt.clock });
      // Reads answered from the instance's lease on PostgreSQL, its writes acknowledged by every instance.
      const reads = await createReadCache(database, { leased: true });
      const drain = callDrain();
      const app = createApp({ config: rt.config, db: rt.db, clock: rt.clock, logger, outbox, reads, drain });
      const server = app.listen(rt.config.port, rt.config.host);
      try {
        await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
      } catch (err) {
        // Nothing was served: stop the mail worker and leave no "serving" mark, so the process exits.
        await outbox.stop();
        mailer.close();
        await reads?.close();
        unmark();
        await rt.close();
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE') throw new AbortError(`Port ${rt.config.port} on ${rt.config.host} is already in use; stop the other server or choose another with --port (or PORT).`);
        if (code === 'EACCES') throw new AbortError(`Port ${rt.config.port} needs more privileges; choose one above 1023 with --port (or PORT).`);
        throw err;
      }
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : rt.config.port;
      info(`Database: ${describeDatabase(rt.config.database)}`);
      if (rt.config.demo) {
        const accounts = await seedDemoAccounts(rt.db, rt.clock);
        if (accounts.length) {
          out('Demo accounts (login codes are printed below as mail arrives when SMTP_URL is unset):');
          for (const a of accounts) out(`  ${a.role.padEnd(15)} ${a.email.padEnd(28)} password: ${a.password}`);
        }
      }

      let stopping = false;
      const stop = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        info(`${signal}: finishing open requests and closing the database...`);
        // No new connections; idle keep-alive ones are dropped and busy ones closed after their answer.
        // The database closes once every call taken has finished, whether or not its caller is still
        // there, and calls still running after the grace period are cut so a stop never hangs.
        drain.stop();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // Once every connection is closed no call can start, so the calls left are the last.
        const finished = closed.then(() => drain.idle());
        server.closeIdleConnections();
        let grace: NodeJS.Timeout | undefined;
        const cut = new Promise<boolean>((resolve) => (grace = setTimeout(resolve, SHUTDOWN_GRACE_MS, true)));
        if (await Promise.race([finished.then(() => false), cut])) {
          info(`Calls still open after ${SHUTDOWN_GRACE_MS / 1000} s; closing them.`);
          server.closeAllConnections();
        }
        clearTimeout(grace);
        await outbox.stop();
        mailer.close();
        await reads?.close();
        await rt.close();
        unmark();
        info('Stopped.');
      };
      process.once('SIGINT', () => void stop('SIGINT'));
      process.once('SIGTERM', () => void stop('SIGTERM'));
      // Announced once a stop signal is handled: a supervisor may send one as soon as it reads this.
      out(`Listening on http://localhost:${port}`);
    });
}
