// The lists' search by control number, company or lot from an index of substrings (issue 25): a
// trigram GIN index on PostgreSQL, an FTS5 trigram table kept by triggers on SQLite
// (server/db/requestSearch.ts), filled with the requests there are.
import type { Knex } from 'knex';
import { createRequestSearch, dropRequestSearch } from '../requestSearch.js';

export async function up(knex: Knex): Promise<void> {
  await createRequestSearch(knex);
}

export async function down(knex: Knex): Promise<void> {
  await dropRequestSearch(knex);
}
