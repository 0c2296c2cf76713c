// How many progress rows (server/db/requestProgress.ts) each (scope, status) has, kept in
// progress_counts by triggers in the database itself, in the transaction of every insert, update and
// delete: the work lists' X-Total-Count (issue 22) reads a few counts instead of counting tens of
// thousands of requests after every commit that makes a list stale (10-17 ms on PostgreSQL for the
// 43,000 released requests of the bench). Every request has an 'all' row of its own status, so the
// 'all' counts are the requests per status. Spelled per dialect here, so migrations stay free of
// dialect checks.
//
// PostgreSQL: a statement trigger per event nets the statement's rows per (scope, status) from its
// transition tables and adds each change to sharded count rows (shardedCounts.ts), as the audit
// trail's counts do: concurrent writers never wait for one another. SQLite has
// one writer at a time: row triggers add to the one count row (shard 0).
import type { Knex } from 'knex';
import { isPostgres } from './knex.js';
import { createShardedCounter } from './shardedCounts.js';

type Db = Knex | Knex.Transaction;

const TABLE = 'progress_counts';
const COUNTED = 'request_progress';

/** Per event, the statement's rows as changes of (scope, status), from its transition tables. */
const PG_CHANGES = {
  insert: { tables: 'NEW TABLE AS added', rows: 'SELECT scope, status, 1 AS d FROM added' },
  delete: { tables: 'OLD TABLE AS removed', rows: 'SELECT scope, status, -1 AS d FROM removed' },
  update: { tables: 'OLD TABLE AS removed NEW TABLE AS added', rows: 'SELECT scope, status, 1 AS d FROM added UNION ALL SELECT scope, status, -1 FROM removed' },
} as const;

const pgName = (event: string) => `${TABLE}_${event}`;

/** Creates progress_counts, counts the rows request_progress has, and keeps counting every change. */
export async function createProgressCounts(knex: Knex): Promise<void> {
  await knex.schema.createTable(TABLE, (t) => {
    t.string('scope', 20).notNullable();
    t.string('status', 20).notNullable();
    t.bigInteger('shard').notNullable();
    t.bigInteger('n').notNullable();
    t.primary(['scope', 'status', 'shard']);
  });
  // The triggers first: on PostgreSQL they lock out writes until this transaction commits, so the
  // rows counted below are all there are.
  if (isPostgres(knex)) {
    for (const [event, { tables, rows }] of Object.entries(PG_CHANGES)) {
      await createShardedCounter(knex, pgName(event), TABLE, ['scope', 'status'], rows);
      await knex.raw(`CREATE TRIGGER ?? AFTER ${event.toUpperCase()} ON ?? REFERENCING ${tables} FOR EACH STATEMENT EXECUTE FUNCTION ??()`, [pgName(event), COUNTED, pgName(event)]);
    }
  } else {
    const add = (row: 'NEW' | 'OLD', d: number) =>
      `INSERT INTO ${TABLE} (scope, status, shard, n) VALUES (${row}.scope, ${row}.status, 0, ${d}) ON CONFLICT (scope, status, shard) DO UPDATE SET n = n + ${d};`;
    await knex.raw(`CREATE TRIGGER ${pgName('insert')} AFTER INSERT ON ${COUNTED} BEGIN ${add('NEW', 1)} END`);
    await knex.raw(`CREATE TRIGGER ${pgName('delete')} AFTER DELETE ON ${COUNTED} BEGIN ${add('OLD', -1)} END`);
    // A result save updates the numbers of a row, not what it is counted under: those updates add nothing.
    await knex.raw(`CREATE TRIGGER ${pgName('update')} AFTER UPDATE OF scope, status ON ${COUNTED}
      WHEN OLD.scope IS NOT NEW.scope OR OLD.status IS NOT NEW.status BEGIN ${add('OLD', -1)} ${add('NEW', 1)} END`);
  }
  await knex.raw(`INSERT INTO ${TABLE} (scope, status, shard, n) SELECT scope, status, 0, count(*) FROM ${COUNTED} GROUP BY scope, status`);
}

export async function dropProgressCounts(knex: Knex): Promise<void> {
  for (const event of Object.keys(PG_CHANGES)) {
    if (isPostgres(knex)) {
      await knex.raw('DROP TRIGGER IF EXISTS ?? ON ??', [pgName(event), COUNTED]);
      await knex.raw('DROP FUNCTION IF EXISTS ??()', [pgName(event)]);
    } else {
      await knex.raw('DROP TRIGGER IF EXISTS ??', [pgName(event)]);
    }
  }
  await knex.schema.dropTableIfExists(TABLE);
}

/** How many progress rows of `scope` are in one of `statuses`: for 'all', how many requests. */
export async function progressCount(db: Db, scope: string, statuses: readonly string[]): Promise<number> {
  const [{ n }] = await db(TABLE).where('scope', scope).whereIn('status', statuses).sum({ n: 'n' });
  return Number(n ?? 0);
}
