// The worst decision against a specification among a request's analyses (issue 26), kept in its
// progress rows (server/db/requestProgress.ts, db/conformity.ts) so For Release reads it with the row
// it joins already instead of aggregating analyses per listed request. Rebuilt from the analyses.
import type { Knex } from 'knex';
import { rebuildProgress } from '../requestProgress.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('request_progress', (t) => {
    t.integer('conformity_rank').nullable();
  });
  await rebuildProgress(knex);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('request_progress', (t) => {
    t.dropColumn('conformity_rank');
  });
}
