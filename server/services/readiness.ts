// Whether this instance can serve calls (GET /readyz, `labctl doctor`): the database answers and
// every migration this code knows is applied, so a proxy sends no traffic to an instance of a newer
// release before `labctl migrate latest` ran, nor to one that lost its database.
import type { Knex } from 'knex';
import { migrationStatus } from '../db/migrate.js';

export type Readiness = { ready: true } | { ready: false; reason: string };

export async function checkReadiness(db: Knex): Promise<Readiness> {
  let pending: string[];
  try {
    pending = (await migrationStatus(db)).pending;
  } catch (err) {
    return { ready: false, reason: `The database is not reachable: ${(err as Error).message}` };
  }
  if (pending.length > 0) return { ready: false, reason: `Migrations pending: ${pending.join(', ')}. Run labctl migrate latest.` };
  return { ready: true };
}
