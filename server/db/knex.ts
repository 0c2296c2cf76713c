// The one place that turns settings into a knex instance. SQLite gets the pragmas of DESIGN.md
// section 4 on every connection: WAL, foreign keys, a busy timeout and synchronous=FULL.
import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import type { Config } from '../config.js';

export type Db = Knex;

const SQLITE_PRAGMAS = ['journal_mode = WAL', 'foreign_keys = ON', 'busy_timeout = 5000', 'synchronous = FULL'];

export function createDb(settings: Config['database']): Db {
  if (settings.client === 'sqlite3') {
    fs.mkdirSync(path.dirname(settings.filename), { recursive: true });
    return knexFactory({
      client: 'sqlite3',
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
