// The work lists' lengths at hundreds of thousands of requests (issue 22): the progress rows per scope
// and status, kept by triggers (server/db/progressCounts.ts), so X-Total-Count sums a few counts
// instead of counting every request of a status after each commit; up() counts the rows already there.
import type { Knex } from 'knex';
import { createProgressCounts, dropProgressCounts } from '../progressCounts.js';

export async function up(knex: Knex): Promise<void> {
  await createProgressCounts(knex);
}

export async function down(knex: Knex): Promise<void> {
  await dropProgressCounts(knex);
}
