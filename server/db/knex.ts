// The one place that turns settings into a knex instance. SQLite gets the pragmas of DESIGN.md
// section 4 on every connection: WAL, foreign keys, a busy timeout and synchronous=FULL.
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import type { Config } from '../config.js';
import { ensurePrivateDir, ensurePrivateFile } from '../privateFiles.js';
import { ImmediateSqlite3, SYNC_BUSY_MS } from './sqliteClient.js';

export type Db = Knex;

// SQLite's own busy wait is kept short because it blocks the event loop; ImmediateSqlite3 waits the
// rest (up to 30 s for a second process on the file: labctl, or a second server) between turns.
const SQLITE_PRAGMAS = ['journal_mode = WAL', 'foreign_keys = ON', `busy_timeout = ${SYNC_BUSY_MS}`, 'synchronous = FULL'];

export function createDb(settings: Config['database']): Db {
  if (settings.client === 'sqlite3') {
    // Created owner-only before SQLite opens it; its -wal and -shm files take the same permissions.
    ensurePrivateDir(path.dirname(settings.filename));
    ensurePrivateFile(settings.filename);
    return knexFactory({
      client: ImmediateSqlite3,
      connection: { filename: settings.filename },
      useNullAsDefault: true,
      // One connection: SQLite serialises writers anyway, and a single pool slot avoids SQLITE_BUSY.
      pool: {
        min: 1,
        max: 1,
        afterCreate(conn: { exec(sql: string): void }, done: (err: Error | null, conn: unknown) => void) {
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
    client: 'pg',
    connection: settings.connectionString,
    searchPath: settings.searchPath ? [settings.searchPath] : undefined,
    pool: { min: 0, max: 10 },
  });
}

export const isPostgres = (db: Db) => db.client.config.client === 'pg';
