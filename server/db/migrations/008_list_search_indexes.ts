// The keyset-paged work queues (GET requests/queue/...) read each page in index order: by status and
// submission (the 001 index), by status and due date ("most urgent first"), and a client's track list
// by status or due date. Without them SQLite sorts a whole status (thousands of rows) per page.
import type { Knex } from 'knex';

const INDEXES = [
  ['status', 'due_date'],
  ['client_user_id', 'status', 'submission_date'],
  ['client_user_id', 'due_date'],
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('requests', (t) => {
    for (const columns of INDEXES) t.index(columns);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('requests', (t) => {
    for (const columns of INDEXES) t.dropIndex(columns);
  });
}
