// The one place that turns settings into a knex instance. SQLite gets the pragmas of DESIGN.md
// section 4 on every connection: WAL, foreign keys, a busy timeout, and durable commits (DESIGN's
// synchronous=FULL, kept by flushing the WAL off the event loop: see SQLITE_PRAGMAS).
// knex's own messages go to our logger (stderr), never to console.log: stdout carries only a
// command's result, and `--json` output must stay JSON when the database is down.
import path from 'node:path';
import { inspect } from 'node:util';
import knexFactory, { type Knex } from 'knex';
import type { Config } from '../config.js';
import { createLoggerTo, type Logger } from '../logger.js';
import { createPrivateDir, ensurePrivateFile } from '../privateFiles.js';
import { dataDirProblem } from './connectionProblems.js';
import { PreparedPg } from './pgClient.js';
import { ReadOnlySqlite3 } from './readOnlySqlite.js';
import { ImmediateSqlite3, SYNC_BUSY_MS } from './sqliteClient.js';

export type Db = Knex;

export interface DbOptions {
  /** Receives knex's warnings, errors and deprecations (default: readable lines on stderr). */
  logger?: Logger;
  /**
   * Read only, changing nothing anywhere (`labctl doctor`): no directory or file is created, SQLite
   * is read without creating its -wal and -shm files, PostgreSQL sessions refuse writes.
   */
  readOnly?: boolean;
}

/** How long one attempt to connect to PostgreSQL may take: an address that never answers fails start-up in time. */
export const CONNECT_TIMEOUT_MS = 3_000;

// SQLite's own busy wait is kept short because it blocks the event loop; ImmediateSqlite3 waits the
// rest (up to 30 s for a second process on the file: labctl, or a second server) between turns.
// synchronous=NORMAL: a COMMIT writes the WAL without waiting for the disk on the event loop, and
// ImmediateSqlite3 settles it once the WAL is flushed in the thread pool (walSync.ts), so an
// acknowledged write is on disk as with FULL.
const SQLITE_PRAGMAS = ['journal_mode = WAL', 'foreign_keys = ON', `busy_timeout = ${SYNC_BUSY_MS}`, 'synchronous = NORMAL'];

type Done = (err: Error | null, conn: unknown) => void;

export function createDb(settings: Config['database'], options: DbOptions = {}): Db {
  const log = knexLog(options.logger ?? createLoggerTo('warn', 'pretty'));
  if (settings.client === 'sqlite3') {
    if (options.readOnly) {
      return knexFactory({ client: ReadOnlySqlite3, connection: { filename: settings.filename }, useNullAsDefault: true, log, pool: { min: 0, max: 1 } });
    }
    createFiles(settings.filename);
    return knexFactory({
      client: ImmediateSqlite3,
      connection: { filename: settings.filename },
      useNullAsDefault: true,
      log,
      // One connection: SQLite serialises writers anyway, and a single pool slot avoids SQLITE_BUSY.
      pool: {
        min: 1,
        max: 1,
        afterCreate(conn: { exec(sql: string): void }, done: Done) {
          try {
            conn.exec(SQLITE_PRAGMAS.map((p) => `PRAGMA ${p};`).join(' '));
            done(null, conn);
          } catch (err) {
            done(err as Error, conn);
          }
        },
      },
    });
  }
  return knexFactory({
    client: PreparedPg,
    connection: { connectionString: settings.connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS },
    searchPath: settings.searchPath ? [settings.searchPath] : undefined,
    log,
    pool: {
      min: 0,
      max: 10,
      ...(options.readOnly && {
        afterCreate(conn: { query(sql: string, done: (err: Error | null) => void): void }, done: Done) {
          conn.query('SET default_transaction_read_only = on', (err) => done(err, conn));
        },
      }),
    },
  });
}

/**
 * Creates the database file (and its directory, not the directory's parents: those missing means a
 * mistyped path) owner-only before SQLite opens it; its -wal and -shm files take the same permissions.
 */
function createFiles(filename: string): void {
  try {
    createPrivateDir(path.dirname(filename));
    ensurePrivateFile(filename);
  } catch (err) {
    throw dataDirProblem(err as NodeJS.ErrnoException, path.dirname(filename));
  }
}

/**
 * knex's log hooks, into `logger`. A failed connection attempt is logged at debug level only: the
 * same error reaches the caller, which says what to do about it in one line.
 */
function knexLog(logger: Logger): Knex.Config['log'] {
  const text = (message: unknown) => (typeof message === 'string' ? message : inspect(message, { depth: 3 }));
  const child = logger.child({ component: 'knex' });
  return {
    warn: (message: unknown) => {
      const line = text(message);
      if (line.startsWith('Acquire connection error')) child.debug(line);
      else child.warn(line);
    },
    error: (message: unknown) => child.error(text(message)),
    deprecate: (message: unknown) => child.warn(text(message)),
    debug: (message: unknown) => child.debug(text(message)),
  };
}

export const isPostgres = (db: Db) => (db.client as { dialect?: string }).dialect === 'postgresql';
