// The ':earlier' change versions (server/db/changeVersions.ts): a write to a request submitted before
// the window of recent work moves its status's ':earlier' version too, so a page of a work queue
// that ends before that window stays valid while the day's work lands on recent requests. Adds their
// rows and gives the triggers the new marks; a database that 014 created with them already (any
// created since) gets the same triggers again.
import type { Knex } from 'knex';
import { EARLIER_KINDS, addKinds } from '../changeVersions.js';

export const up = (knex: Knex): Promise<void> => addKinds(knex, EARLIER_KINDS);

// Without their rows the new marks move nothing, and no page depends on them once the server that
// read them stops.
export async function down(knex: Knex): Promise<void> {
  await knex('lab_versions').whereIn('name', EARLIER_KINDS).delete();
}
