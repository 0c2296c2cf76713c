// The change versions' triggers on PostgreSQL, cheaper (server/db/changeVersions.ts): one trigger call
// a statement on the request tables instead of three, and the deferred move once a transaction
// instead of once per kind marked. They move the same versions as before. A database that 014
// created with these already (any created since) and SQLite are left as they are.
import type { Knex } from 'knex';
import { SPLIT_MARK_FUNCTIONS, createVersionFunctions, hasSplitTriggers, trackChanges, trackedTables, untrackChanges } from '../changeVersions.js';
import { isPostgres } from '../knex.js';

export async function up(knex: Knex): Promise<void> {
  if (!isPostgres(knex) || !(await hasSplitTriggers(knex))) return;
  await createVersionFunctions(knex);
  for (const table of await trackedTables(knex)) {
    await untrackChanges(knex, table);
    await trackChanges(knex, table);
  }
  for (const fn of SPLIT_MARK_FUNCTIONS) await knex.raw(`DROP FUNCTION IF EXISTS ${fn}()`);
}

// The cheaper triggers move the same versions as the ones they replaced, so they stay.
export async function down(): Promise<void> {}
