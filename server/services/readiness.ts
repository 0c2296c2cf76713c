// Whether this instance can serve calls (GET /readyz, `labctl doctor`): the database answers and
// every migration this code knows is applied, so a proxy sends no traffic to an instance of a newer
// release before `labctl migrate latest` ran, nor to one that lost its database.
// Only reads: knex's own migration listing creates its tables when missing, and a check must not
// change the database it checks (doctor opens it read-only).
import type { Knex } from 'knex';
import { migrationSource } from '../db/migrations/index.js';

export type Readiness = { ready: true } | { ready: false; reason: string };

async function pendingMigrations(db: Knex): Promise<string[]> {
  const known = await migrationSource.getMigrations([]);
  const applied = new Set<string>((await db.schema.hasTable('knex_migrations')) ? await db('knex_migrations').pluck('name') : []);
  return known.filter((name) => !applied.has(name));
}

export async function checkReadiness(db: Knex): Promise<Readiness> {
  let pending: string[];
  try {
    pending = await pendingMigrations(db);
  } catch (err) {
    return { ready: false, reason: `The database is not reachable: ${(err as Error).message}` };
  }
  if (pending.length > 0) return { ready: false, reason: `Migrations pending: ${pending.join(', ')}. Run labctl migrate latest.` };
  return { ready: true };
}
