// What every labctl command shares: settings and database exactly as `serve` uses them, output
// channels (results to stdout, messages to stderr), and the kinds of failure with their exit codes.
import fs from 'node:fs';
import type { Config, RawConfig } from '../server/config.js';
import type { Clock } from '../server/clock.js';
import type { Db } from '../server/db/knex.js';
import type { Logger } from '../server/logger.js';
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
  /** Refuses settings the command cannot work with (a message to say why, or nothing), before connecting. */
  refuse?: (config: Config) => string | undefined;
  /** `labctl serve`: logs at info by default, as JSON when stderr is not a terminal (LOG_FORMAT overrides). */
  server?: boolean;
}

// Mail: commands only queue it in the outbox table, in the transaction of their change; the running
// server's worker sends it, with the server's SMTP settings. A command never sends mail itself, so the
// environment of an admin's shell (no SMTP_URL, say) cannot decide how a client's mail leaves. The one
// exception, `labctl mail retry --now`, runs the outbox worker's code and refuses without SMTP_URL.
export async function openRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  // Loaded here, not above, so that `labctl --help` and usage errors do not pay for them.
  const [{ loadConfig }, { systemClock }, { createDb }, { checkConnection, prepareDataDir }] = await Promise.all([
    import('../server/config.js'),
    import('../server/clock.js'),
    import('../server/db/knex.js'),
    import('../server/db/connectionProblems.js'),
  ]);
  const { env } = io();
  const config = loadConfig(env, options.overrides);
  const refusal = options.refuse?.(config);
  if (refusal) throw new AbortError(refusal);
  if (!options.createDatabase && config.database.client === 'sqlite3' && !fs.existsSync(config.database.filename)) {
    throw new AbortError(
      `There is no database at ${config.database.filename}: check DATA_DIR (${config.dataDir}) or DATABASE_URL, or create one with \`labctl migrate\` or \`labctl seed\`.`,
    );
  }
  // The server writes in DATA_DIR whatever the database: an unusable one stops it here, in one line.
  if (options.server) prepareDataDir(config.dataDir);
  const logger = await cliLogger(config, Boolean(options.server));
  const db = createDb(config.database, { logger });
  try {
    // Fails at once, in one line, when the database cannot be reached (instead of the pool's retries).
    await checkConnection(db, config.database);
    if (options.migrate !== false) await applyMigrations({ config, db, logger });
  } catch (err) {
    await db.destroy();
    throw err;
  }
  const wrote = watchWrites(db);
  return {
    config,
    db,
    clock: systemClock,
    logger,
    close: async () => {
      try {
        // What the command wrote shows in the next read on every running server (its read cache) before
        // the command ends. Should that fail, it is committed all the same, and shows within a second.
        if (wrote() && config.database.client === 'pg' && !options.server) await acknowledgedByServers(config.database).catch(() => undefined);
      } finally {
        await db.destroy();
      }
    },
  };
}

/** Whether `db` has run a statement that may write (anything but a plain SELECT or a transaction's BEGIN, COMMIT, ROLLBACK). */
function watchWrites(db: Db): () => boolean {
  let wrote = false;
  db.on('query', ({ sql }: { sql: string }) => {
    if (!wrote && !/^\s*(select|begin|commit|rollback|savepoint|release)\b/i.test(sql)) wrote = true;
  });
  return () => wrote;
}

async function acknowledgedByServers(database: Config['database']): Promise<void> {
  const { openChangeCounter } = await import('../server/db/changeCounter.js');
  const counter = await openChangeCounter(database);
  try {
    await counter.afterWrite();
  } finally {
    await counter.close();
  }
}

/**
 * Runs `work` on the connection of the tables' owner: MIGRATION_DATABASE_URL when set (opened for
 * `work` alone), otherwise the command's own connection (one role for everything, as in dev and demo).
 */
export async function asOwner<T>(rt: Pick<Runtime, 'config' | 'db' | 'logger'>, work: (owner: Db, appRole?: string) => Promise<T>): Promise<T> {
  const settings = rt.config.migrationDatabase;
  if (!settings) return work(rt.db);
  const [{ createDb }, { checkConnection }, { loginRoleOf }] = await Promise.all([import('../server/db/knex.js'), import('../server/db/connectionProblems.js'), import('../server/config.js')]);
  const owner = createDb(settings, { logger: rt.logger });
  try {
    await checkConnection(owner, settings);
    return await work(owner, loginRoleOf((rt.config.database as { connectionString: string }).connectionString));
  } finally {
    await owner.destroy();
  }
}

/** Applies pending migrations as the owner, then grants the portal's role (when it is another) what it needs. */
export async function applyMigrations(rt: Pick<Runtime, 'config' | 'db' | 'logger'>): Promise<string[]> {
  const [{ migrateLatest, migrationStatus }, { grantAppRole, mayMigrate }] = await Promise.all([import('../server/db/migrate.js'), import('../server/db/roles.js')]);
  return asOwner(rt, async (owner, appRole) => {
    if (!(await mayMigrate(owner))) {
      const { pending } = await migrationStatus(owner);
      if (pending.length) {
        throw new AbortError(
          `Migrations are pending (${pending.join(', ')}) and the database role of DATABASE_URL may not apply them: run \`labctl migrate latest\` with MIGRATION_DATABASE_URL set to the tables' owner (docs/deploy.md section 4).`,
        );
      }
    }
    const applied = await migrateLatest(owner);
    if (appRole) await grantAppRole(owner, appRole);
    return applied;
  });
}

/**
 * The logger of a command: to this run's stderr, at LOG_LEVEL (default info for the server, warn
 * otherwise). `serve` logs as LOG_FORMAT says (JSON lines when stderr is not a terminal). Any other
 * command logs readable lines, whatever LOG_FORMAT says (a person reads them beside the command's
 * own messages), except with --json, where a script reads stderr: JSON lines there.
 */
export async function cliLogger(config: Config, server: boolean): Promise<Logger> {
  const { createLoggerTo, chooseLogFormat } = await import('../server/logger.js');
  const { env, stderr, json } = io();
  const level = env.LOG_LEVEL ? config.logLevel : server ? 'info' : 'warn';
  const format = server ? chooseLogFormat(config.logFormat, Boolean(stderr.isTTY), server) : json ? 'json' : 'pretty';
  // The process's own stderr goes through pino's fast writer; a test's captured stream is written directly.
  return createLoggerTo(level, format, stderr === process.stderr ? undefined : stderr);
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
