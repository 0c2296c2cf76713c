// What every labctl command shares: settings and database exactly as `serve` uses them, output
// channels (results to stdout, messages to stderr), and the kinds of failure with their exit codes.
import fs from 'node:fs';
import path from 'node:path';
import type { Config, RawConfig } from '../server/config.js';
import type { Clock } from '../server/clock.js';
import type { Db } from '../server/db/knex.js';
import type { Logger } from '../server/logger.js';
import type { Mailer } from '../server/mail/mailer.js';
import { io } from './io.js';
import { terminalSafe } from './safeText.js';

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

const line = (text: string) => terminalSafe(text.endsWith('\n') ? text : `${text}\n`);

/** A result, on stdout; control characters shown escaped (see safeText.ts). */
export const out = (text: string): void => {
  io().stdout.write(line(text));
};
/** A message, on stderr; control characters shown escaped. */
export const info = (text: string): void => {
  io().stderr.write(line(text));
};

/** Ink views only on a terminal and never with --json: scripts get plain output. */
export const useInk = (json = false) => Boolean(io().stdout.isTTY) && !json;

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
  /**
   * Create a missing SQLite file (serve, migrate and seed). Other commands refuse one: a mistyped
   * DATA_DIR would otherwise give an empty database and reports of nothing.
   */
  createDatabase?: boolean;
  logger?: Logger;
}

export async function openRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  // Loaded here, not above, so that `labctl --help` and usage errors do not pay for them.
  const [{ default: pino }, { loadConfig }, { systemClock }, { createDb }, { migrateLatest }, { createLogger }, { createMailer }, { onMailQueued }, { deliverDueMail }] = await Promise.all([
    import('pino'),
    import('../server/config.js'),
    import('../server/clock.js'),
    import('../server/db/knex.js'),
    import('../server/db/migrate.js'),
    import('../server/logger.js'),
    import('../server/mail/mailer.js'),
    import('../server/db/outbox.js'),
    import('../server/mail/outboxWorker.js'),
  ]);
  const { env } = io();
  const config = loadConfig(env, options.overrides);
  if (!options.createDatabase && config.database.client === 'sqlite3' && !fs.existsSync(config.database.filename)) {
    throw new AbortError(
      `There is no database at ${config.database.filename}: check DATA_DIR (${config.dataDir}) or DATABASE_URL, or create one with \`labctl migrate\` or \`labctl seed\`.`,
    );
  }
  const logger = options.logger ?? createLogger(env.LOG_LEVEL ?? 'warn', pino.destination(2));
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
  // Mail this command queued (e.g. `requests approve`) is sent before it exits; what cannot be sent
  // now stays in the outbox for the server's worker.
  let queuedMail = false;
  const unsubscribe = onMailQueued(() => {
    queuedMail = true;
  });
  return {
    config,
    db,
    clock: systemClock,
    logger,
    mailer,
    async close() {
      unsubscribe();
      if (queuedMail) await deliverDueMail({ db, mailer, logger });
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
