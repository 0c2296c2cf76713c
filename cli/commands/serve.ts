import type { Command } from 'commander';
import pino from 'pino';
import { createApp } from '../../server/app.js';
import { createLogger } from '../../server/logger.js';
import { describeDatabase } from '../../server/config.js';
import { seedDemoAccounts } from '../../server/services/demo.js';
import { info, openRuntime, out } from '../runtime.js';

interface ServeOptions {
  port?: string;
  host?: string;
  demo?: boolean;
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Start the web portal and API (applies pending migrations first)')
    .option('-p, --port <port>', 'port to listen on; 0 picks a free one (env PORT, default 3000)')
    .option('--host <host>', 'address to bind (env HOST, default 0.0.0.0)')
    .option('--demo', 'on an empty database, create one demo account per role and print them; show codes of outbox mail')
    .addHelpText('after', '\nExamples:\n  $ labctl serve --demo\n  $ DATABASE_URL=postgres://lab@db/lab labctl serve --port 8080')
    .action(async (opts: ServeOptions) => {
      const overrides = { PORT: opts.port, HOST: opts.host, DEMO: opts.demo ? 'true' : undefined };
      const logger = createLogger(process.env.LOG_LEVEL ?? 'info', pino.destination(2));
      const rt = await openRuntime({ overrides, logger });
      const app = createApp({ config: rt.config, db: rt.db, mailer: rt.mailer, clock: rt.clock, logger });
      const server = app.listen(rt.config.port, rt.config.host);
      await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
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
      out(`Listening on http://localhost:${port}`);

      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        info(`${signal}: finishing open requests and closing the database...`);
        // close() stops accepting and waits for in-flight requests; idle keep-alive sockets are dropped.
        server.close(async () => {
          await rt.close();
          info('Stopped.');
        });
        server.closeIdleConnections();
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
}
