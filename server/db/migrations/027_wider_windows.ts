// The versions of the wider windows of work (server/db/changeVersions.ts EARLIER_WINDOWS, 90 and 365
// days beside the 14 of 021): a page of a work queue that ends before one stays valid while the
// writes land on requests within it. Adds their rows and gives the triggers the new marks (on SQLite
// one statement a row for all of a request's versions, where there were two).
import type { Knex } from 'knex';
import { WIDER_WINDOW_KINDS, addVersionRows, createVersionFunctions, trackChanges, trackedTables, untrackChanges } from '../changeVersions.js';
import { isPostgres } from '../knex.js';

export async function up(knex: Knex): Promise<void> {
  await addVersionRows(knex, WIDER_WINDOW_KINDS);
  if (isPostgres(knex)) return createVersionFunctions(knex);
  for (const table of await trackedTables(knex)) {
    await untrackChanges(knex, table);
    await trackChanges(knex, table);
  }
}

// Without their rows the new marks move nothing, and no page depends on them once the server that
// read them stops.
export async function down(knex: Knex): Promise<void> {
  await knex('lab_versions').whereIn('name', WIDER_WINDOW_KINDS).delete();
}
