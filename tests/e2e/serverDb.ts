/**
 * Direct access to the e2e server's own database (its SQLite file, or E2E_DATABASE_URL), for setting
 * up state that would take many screens to reach (e.g. fixtures/requests.ts insertRequests).
 */
import path from 'node:path';
import { insertRequests, type RequestSeed, type SeededRequest } from '../../fixtures/requests.js';
import type { RequestStatus } from '../../server/domain/requestStatus.js';
import { createDb, type Db } from '../../server/db/knex.js';
import { refreshProgress } from '../../server/db/requestProgress.js';
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

/** Sets requests' status as the server would, with the progress rows its work queues read. */
export async function setStatus(db: Db, ids: number[], status: RequestStatus): Promise<void> {
  await db('requests').whereIn('id', ids).update({ status });
  await refreshProgress(db, ids);
}

/** Puts requests of the demo client straight into the database, in any status; answers them in order. */
export function seedRequests(lab: Lab, seeds: Omit<RequestSeed, 'clientUserId'>[]): Promise<SeededRequest[]> {
  return withServerDb(lab, async (db) => {
    const client = await db('users').where('email', lab.demo.client.email).first('id');
    return insertRequests(db, seeds.map((seed) => ({ clientUserId: Number(client.id), ...seed })));
  });
}

/**
 * Runs `work` while the requests in `statuses` are set aside (marked rejected), then puts them back:
 * for the empty lists, on a server that other tests fill.
 */
export async function setAside<T>(lab: Lab, statuses: RequestStatus[], work: () => Promise<T>): Promise<T> {
  const parked = await withServerDb(lab, async (db) => {
    const rows: { id: number; status: RequestStatus }[] = await db('requests').whereIn('status', statuses).select('id', 'status');
    if (rows.length) await setStatus(db, rows.map((r) => r.id), 'REJECTED');
    return rows;
  });
  try {
    return await work();
  } finally {
    await withServerDb(lab, async (db) => {
      for (const status of statuses) {
        const ids = parked.filter((r) => r.status === status).map((r) => r.id);
        if (ids.length) await setStatus(db, ids, status);
      }
    });
  }
}
