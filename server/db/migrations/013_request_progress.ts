// The work queues' progress (server/db/requestProgress.ts): one row per request past review and scope
// (every analysis, a discipline's, a chemistry group's) with the request's status and sort keys, so
// a queue page is one range of an index instead of counting analyses per request. up() fills it from
// the analyses already there.
import type { Knex } from 'knex';
import { PROGRESS_COLUMNS_BEFORE_022, rebuildProgress } from '../requestProgress.js';
import { refreshStatistics } from '../statistics.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('request_progress', (t) => {
    t.integer('request_id').notNullable().references('id').inTable('requests').onDelete('CASCADE');
    t.string('scope', 16).notNullable();
    t.string('status', 20).notNullable();
    // 1: the scope has analyses and every one has a value and a remark.
    t.integer('finished').notNullable();
    t.string('submission_date', 40).notNullable();
    // The due date, or 9999-12-31 without one (sorts last).
    t.string('due_key', 40).notNullable();
    t.integer('total').notNullable();
    t.integer('complete').notNullable();
    t.integer('positives').notNullable();
    t.string('last_entered_at', 40).nullable();
    t.primary(['request_id', 'scope']);
    t.index(['scope', 'status', 'finished', 'submission_date', 'request_id']);
    t.index(['scope', 'status', 'finished', 'due_key', 'request_id']);
  });
  await rebuildProgress(knex, PROGRESS_COLUMNS_BEFORE_022);
  await refreshStatistics(knex);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('request_progress');
}
