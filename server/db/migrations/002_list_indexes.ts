// GET requests/released pages the laboratory's whole history, newest release first. Without this
// index SQLite sorted every released request (a temporary B-tree over 43,000 rows at 50,000 requests,
// 160 ms) for each page of 100; with it a page is read in order straight from the index.
import type { Knex } from 'knex';

const COLUMNS = ['status', 'released_at', 'id'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('requests', (t) => {
    t.index(COLUMNS);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('requests', (t) => {
    t.dropIndex(COLUMNS);
  });
}
