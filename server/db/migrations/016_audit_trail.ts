// The audit trail viewer at hundreds of thousands of entries (issue 22). Its counts
// (server/db/actionCounts.ts): entries per action and day, kept by a trigger, so X-Total-Count stays
// exact without counting the whole trail; up() counts the entries already there. And its indexes
// end in id: a page is newest first by (at, id), and entries written together (a results import
// audits thousands at one instant) share `at`, which PostgreSQL would otherwise sort by id on every
// call. They replace the narrower ones (the same leading columns serve the same queries); SQLite's
// indexes already ended in the row id.
import type { Knex } from 'knex';
import { createActionCounts, dropActionCounts } from '../actionCounts.js';

const NARROW = [['at'], ['action', 'at'], ['actor_user_id', 'at']];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('audit_log', (t) => {
    for (const columns of NARROW) {
      t.index([...columns, 'id']);
      t.dropIndex(columns);
    }
  });
  await createActionCounts(knex, 'audit_log', 'audit_counts');
}

export async function down(knex: Knex): Promise<void> {
  await dropActionCounts(knex, 'audit_log', 'audit_counts');
  await knex.schema.alterTable('audit_log', (t) => {
    for (const columns of NARROW) {
      t.index(columns);
      t.dropIndex([...columns, 'id']);
    }
  });
}
