// The species of origin of each sample (issue 26): the animal the meat comes from, one of the
// catalogue's nine species, or null when the client did not state it. Maximum residue limits
// (Regulation (EU) No 37/2010) differ per species, so a specification narrowed to a species applies
// to the samples of that species. Existing samples keep null ("not stated").
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('samples', (t) => {
    t.string('species', 40).nullable();
  });
}

// Not the schema builder's dropColumn: on SQLite it copies the table into a new one, which loses the
// triggers that move the change versions (server/db/changeVersions.ts). Both engines drop a column in place.
export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE samples DROP COLUMN species');
}
