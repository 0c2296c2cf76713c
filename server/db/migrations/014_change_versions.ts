// The change versions of the read cache (server/db/changeVersions.ts): lab_versions and a trigger on
// every table but bookkeeping, so any commit that changes what a screen shows moves 'data', and a
// change to sessions moves 'sessions', whoever makes it.
import type { Knex } from 'knex';
import { createChangeVersions, dropChangeVersions, trackChanges, trackedTables, untrackChanges } from '../changeVersions.js';

export async function up(knex: Knex): Promise<void> {
  await createChangeVersions(knex);
  for (const table of await trackedTables(knex)) await trackChanges(knex, table);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of await trackedTables(knex)) await untrackChanges(knex, table);
  await dropChangeVersions(knex);
}
