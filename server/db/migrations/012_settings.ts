// Settings every instance of one database must agree on, kept in that database rather than in a
// file of one machine's DATA_DIR: the generated server secret (services/serverSecret.ts) and the
// public address `labctl serve` runs under (services/settings.ts).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('settings', (t) => {
    t.string('key', 64).primary();
    t.text('value').notNullable();
    t.string('updated_at', 30).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('settings');
}
