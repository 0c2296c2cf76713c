// The version triggers of a request's rows (analyses, samples, ...) look each request a statement
// touched up once (server/db/changeVersions.ts, STATUS_SOURCES): they looked one up per row, which
// was a third of the time of writing 5,000 results on PostgreSQL. The functions mark the same kinds
// as before; SQLite's row triggers are unchanged.
import type { Knex } from 'knex';
import { createVersionFunctions } from '../changeVersions.js';
import { isPostgres } from '../knex.js';

export async function up(knex: Knex): Promise<void> {
  if (isPostgres(knex)) await createVersionFunctions(knex);
}

// The functions before marked the same kinds, only slower: nothing to undo.
export async function down(): Promise<void> {}
