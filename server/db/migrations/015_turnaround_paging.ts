// The turnaround dashboard a page at a time (issue 22), in two statements that read indexes of the
// open requests alone (partial indexes: WHERE status IN the open statuses).
// - The list walks the open requests in urgency order (due date, missing last, then submission and
//   id) from the cursor on, instead of sorting all of them per call.
// - The counts per discipline (open, late, oldest) read the progress rows' index (scope, due key,
//   submission, and status so that SQLite counts from the index alone). Progress rows now cover
//   requests in review too: up() adds theirs.
// SQLite uses a partial or expression index only for a query that repeats its text, so the service
// (services/requests/turnaround.ts) writes these expressions and literal statuses the same way.
import type { Knex } from 'knex';
import { PROGRESS_COLUMNS_BEFORE_022, refreshProgress } from '../requestProgress.js';

const OPEN = "WHERE status IN ('PENDING_REVIEW', 'FOR_TESTING', 'FOR_RELEASE')";
const INDEXES = {
  requests_open_urgency_index: `requests (coalesce(due_date, '9999-12-31'), submission_date, id) ${OPEN}`,
  request_progress_open_index: `request_progress (scope, due_key, submission_date, status) ${OPEN}`,
};

export async function up(knex: Knex): Promise<void> {
  for (const [name, definition] of Object.entries(INDEXES)) await knex.raw(`CREATE INDEX ${name} ON ${definition}`);
  await refreshProgress(knex, (await knex('requests').where('status', 'PENDING_REVIEW').pluck('id')).map(Number), PROGRESS_COLUMNS_BEFORE_022);
}

export async function down(knex: Knex): Promise<void> {
  await knex('request_progress').where('status', 'PENDING_REVIEW').delete();
  for (const name of Object.keys(INDEXES)) await knex.raw(`DROP INDEX ${name}`);
}
