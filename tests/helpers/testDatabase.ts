// Each test app gets its own database: a fresh SQLite file, or a fresh schema in the PostgreSQL
// database of TEST_DATABASE_URL, so runs and files never see each other's rows.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import knexFactory from 'knex';
import { createDb, type Db } from '../../server/db/knex.js';
import type { Config } from '../../server/config.js';

export const databaseKind = (): 'sqlite' | 'postgres' => (process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite');

export interface TestDatabase {
  kind: 'sqlite' | 'postgres';
  settings: Config['database'];
  db: Db;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-test-'));
    const settings = { client: 'sqlite3' as const, filename: path.join(dir, 'lab.sqlite') };
    const db = createDb(settings);
    return {
      kind: 'sqlite',
      settings,
      db,
      async drop() {
        await db.destroy();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  await admin.raw('create schema ??', [schema]);
  const settings = { client: 'pg' as const, connectionString: url, searchPath: schema };
  const db = createDb(settings);
  return {
    kind: 'postgres',
    settings,
    db,
    async drop() {
      await db.destroy();
      await admin.raw('drop schema ?? cascade', [schema]);
      await admin.destroy();
    },
  };
}
