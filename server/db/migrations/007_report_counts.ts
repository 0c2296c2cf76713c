// Monthly reports read counters instead of grouping every analysis: at 1,000,000 analyses the
// GROUP BY (joined to requests to leave out rejected ones) took 60-160 ms per call. The counters
// are kept by the writes (server/db/reportCounts.ts); up() fills them from the analyses already there.
import type { Knex } from 'knex';
import { rebuildReportCounts } from '../reportCounts.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('report_counts', (t) => {
    t.string('report_month', 7).notNullable();
    t.string('test_code', 40).notNullable();
    t.string('remark', 10).notNullable();
    t.integer('n').notNullable();
    t.primary(['test_code', 'report_month', 'remark']);
  });
  await rebuildReportCounts(knex);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('report_counts');
}
