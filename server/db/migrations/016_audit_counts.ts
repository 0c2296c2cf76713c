// The audit trail viewer's counts (server/db/actionCounts.ts): audit entries per action and day,
// kept by a trigger, so X-Total-Count stays exact without counting the whole trail. up() counts the
// entries already there.
import type { Knex } from 'knex';
import { createActionCounts, dropActionCounts } from '../actionCounts.js';

export async function up(knex: Knex): Promise<void> {
  await createActionCounts(knex, 'audit_log', 'audit_counts');
}

export async function down(knex: Knex): Promise<void> {
  await dropActionCounts(knex, 'audit_log', 'audit_counts');
}
