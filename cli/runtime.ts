// What every labctl command shares: settings and database exactly as `serve` uses them, output
// channels (results to stdout, messages to stderr), and the kinds of failure with their exit codes.
import path from 'node:path';
import pino from 'pino';
import { loadConfig, type Config, type RawConfig } from '../server/config.js';
import { systemClock, type Clock } from '../server/clock.js';
import { createDb, type Db } from '../server/db/knex.js';
import { migrateLatest } from '../server/db/migrate.js';
import { createLogger, type Logger } from '../server/logger.js';
import { createMailer, type Mailer } from '../server/mail/mailer.js';

/** A failure the user can fix; the message says how. Exit code 1. */
export class AbortError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
    this.name = 'AbortError';
  }
}

/** Wrong use of the command line. Exit code 2. */
export class UsageError extends AbortError {
  constructor(message: string) {
    super(message, 2);
    this.name = 'UsageError';
  }
}

export const out = (text: string): void => {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
};
export const info = (text: string): void => {
  process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
};

/** Ink views only on a terminal and never with --json: scripts get plain output. */
export const useInk = (json = false) => Boolean(process.stdout.isTTY) && !json;

export interface Runtime {
  config: Config;
  db: Db;
  clock: Clock;
  logger: Logger;
  mailer: Mailer;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  overrides?: Partial<Record<keyof RawConfig, string>>;
  /** Apply pending migrations first (every command but `migrate` does). */
  migrate?: boolean;
  logger?: Logger;
}

export async function openRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  const config = loadConfig(process.env, options.overrides);
  const logger = options.logger ?? createLogger(process.env.LOG_LEVEL ?? 'warn', pino.destination(2));
  const db = createDb(config.database);
  try {
    if (options.migrate !== false) await migrateLatest(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'outbox'),
    demo: config.demo,
    logger,
    print: info,
  });
  return {
    config,
    db,
    clock: systemClock,
    logger,
    mailer,
    async close() {
      mailer.close();
      await db.destroy();
    },
  };
}

/** Opens the runtime, runs `work`, and always closes the database. */
export async function withRuntime<T>(work: (rt: Runtime) => Promise<T>, options: RuntimeOptions = {}): Promise<T> {
  const rt = await openRuntime(options);
  try {
    return await work(rt);
  } finally {
    await rt.close();
  }
}
