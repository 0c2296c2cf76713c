// The work queues ask, per request of a page, how many of its analyses of some groups are complete
// (For Testing's progress and its "outstanding" filter) and whether one is positive (For Release).
// With (request_id, result_group) alone SQLite reads every such analysis row from the table for
// its value and remark (EXPLAIN: "USING INDEX"); with remark and value in the index the answers come
// from the index only ("USING COVERING INDEX"). It replaces the narrower index, whose queries it
// serves as well (same leading columns).
import type { Knex } from 'knex';

const NARROW = ['request_id', 'result_group'];
const COVERING = ['request_id', 'result_group', 'remark', 'value'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('analyses', (t) => {
    t.index(COVERING);
    t.dropIndex(NARROW);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('analyses', (t) => {
    t.index(NARROW);
    t.dropIndex(COVERING);
  });
}
