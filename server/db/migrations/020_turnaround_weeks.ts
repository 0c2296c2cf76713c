// The turnaround chart (issue 25): per discipline and day of submission, how many requests were
// released on time, are late and are open. Its GROUP BY reads the progress rows of a few scopes
// within a range of submission days; this index holds that range with the status and due key the
// sums read, so neither database scans every progress row of a discipline.
import type { Knex } from 'knex';

const NAME = 'request_progress_submission_index';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE INDEX ${NAME} ON request_progress (scope, submission_date, status, due_key, request_id)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP INDEX ${NAME}`);
}
