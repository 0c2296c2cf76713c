// The one place that turns settings into a knex instance. SQLite gets the pragmas of DESIGN.md
// section 4 on every connection: WAL, foreign keys, a busy timeout and synchronous=FULL.
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import ClientSqlite3 from 'knex/lib/dialects/sqlite3/index.js';
import type { Config } from '../config.js';
import { ensurePrivateDir, ensurePrivateFile } from '../privateFiles.js';

export type Db = Knex;

// A writer waits up to 30 s for another (a second process on the file: labctl, or a second server).
const SQLITE_PRAGMAS = ['journal_mode = WAL', 'foreign_keys = ON', 'busy_timeout = 30000', 'synchronous = FULL'];

/**
 * Transactions begin IMMEDIATE, taking the write lock first: a deferred transaction that read before
 * another process wrote cannot upgrade and fails at once with SQLITE_BUSY (the busy timeout does not
 * apply), while an immediate one waits its turn. SQLite stays single-writer; scale-out is PostgreSQL.
 */
class ImmediateSqlite3 extends ClientSqlite3 {
  transaction(...args: unknown[]) {
    const trx = super.transaction(...args);
    trx.begin = (conn) => trx.query(conn, 'BEGIN IMMEDIATE;');
    return trx;
  }
}

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
        afterCreate(conn: { exec(sql: string, cb: (err: Error | null) => void): void }, done: (err: Error | null, conn: unknown) => void) {
          conn.exec(SQLITE_PRAGMAS.map((p) => `PRAGMA ${p};`).join(' '), (err) => done(err, conn));
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
