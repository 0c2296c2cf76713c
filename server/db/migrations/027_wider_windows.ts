// The versions of the wider windows of work (server/db/changeVersions.ts EARLIER_WINDOWS, 90 and 365
// days beside the 14 of 021): a page of a work queue that ends before one stays valid while the
// writes land on requests within it. Adds their rows and gives the triggers the new marks (on SQLite
// one statement a row for all of a request's versions, where there were two).
import type { Knex } from 'knex';
import { WIDER_WINDOW_KINDS, addKinds } from '../changeVersions.js';

export const up = (knex: Knex): Promise<void> => addKinds(knex, WIDER_WINDOW_KINDS);

// As 021's: rows gone, the marks move nothing.
export async function down(knex: Knex): Promise<void> {
  await knex('lab_versions').whereIn('name', WIDER_WINDOW_KINDS).delete();
}
