/**
 * Direct access to the e2e server's own database (its SQLite file, or E2E_DATABASE_URL), for setting
 * up state that would take many screens to reach (e.g. fixtures/requests.ts insertRequests).
 */
import path from 'node:path';
import { createDb, type Db } from '../../server/db/knex.js';
import type { Lab } from './fixtures.js';

export async function withServerDb<T>(lab: Lab, work: (db: Db) => Promise<T>): Promise<T> {
  const url = process.env.E2E_DATABASE_URL;
  const db = createDb(url ? { client: 'pg', connectionString: url } : { client: 'sqlite3', filename: path.join(lab.dataDir, 'lab.sqlite') });
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}
