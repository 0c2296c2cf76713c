// How many rows an append-only log table (its `action`, and `at` an ISO 8601 UTC time) has per action
// and day, kept in a counts table by a trigger in the database itself, in the transaction of every
// insert: the audit trail viewer's X-Total-Count (issue 22) sums a few thousand counts instead of
// counting hundreds of thousands of entries. The log is append-only (appendOnly.ts), so an insert is
// the only change there is to count. Spelled per dialect here, so migrations stay free of dialect
// checks.
//
// PostgreSQL: a statement trigger adds each (action, day) of the statement's rows to sharded count
// rows (shardedCounts.ts), so concurrent writers never wait for one another.
// SQLite has one writer at a time: a row trigger adds each row to the one count row (shard 0).
import type { Knex } from 'knex';
import { isPostgres } from './knex.js';
import { createShardedCounter } from './shardedCounts.js';

type Db = Knex | Knex.Transaction;

const triggerName = (log: string) => `${log}_counts`;

/** Creates `counts`, counts the rows `log` has, and keeps counting every insert. */
export async function createActionCounts(knex: Knex, log: string, counts: string): Promise<void> {
  await knex.schema.createTable(counts, (t) => {
    t.string('action', 60).notNullable();
    // The UTC day of the rows' `at`: the days the viewer's since and until filters name.
    t.string('day', 10).notNullable();
    t.bigInteger('shard').notNullable();
    t.bigInteger('n').notNullable();
    t.primary(['action', 'day', 'shard']);
  });
  const name = triggerName(log);
  // The trigger first: on PostgreSQL it locks out inserts until this transaction commits, so the rows
  // counted below are all there are.
  if (isPostgres(knex)) {
    await createShardedCounter(knex, name, counts, ['action', 'day'], 'SELECT action, substr(at, 1, 10) AS day, 1 AS d FROM added');
    await knex.raw('CREATE TRIGGER ?? AFTER INSERT ON ?? REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION ??()', [name, log, name]);
  } else {
    await knex.raw(`CREATE TRIGGER ?? AFTER INSERT ON ?? BEGIN
      INSERT INTO ${counts} (action, day, shard, n) VALUES (NEW.action, substr(NEW.at, 1, 10), 0, 1) ON CONFLICT (action, day, shard) DO UPDATE SET n = n + 1;
    END`, [name, log]);
  }
  await knex.raw('INSERT INTO ?? (action, day, shard, n) SELECT action, substr(at, 1, 10), 0, count(*) FROM ?? GROUP BY action, substr(at, 1, 10)', [counts, log]);
}

export async function dropActionCounts(knex: Knex, log: string, counts: string): Promise<void> {
  const name = triggerName(log);
  if (isPostgres(knex)) {
    await knex.raw('DROP TRIGGER IF EXISTS ?? ON ??', [name, log]);
    await knex.raw('DROP FUNCTION IF EXISTS ??()', [name]);
  } else {
    await knex.raw('DROP TRIGGER IF EXISTS ??', [name]);
  }
  await knex.schema.dropTableIfExists(counts);
}

/** Per action, how many rows `counts` says the days from `since` to `until` (inclusive; either open) hold. */
export async function countsByAction(db: Db, counts: string, { since, until }: { since?: string; until?: string }): Promise<Map<string, number>> {
  const query = db(counts).groupBy('action').select('action').sum({ n: 'n' });
  if (since) query.where('day', '>=', since);
  if (until) query.where('day', '<=', until);
  const rows = (await query) as Array<{ action: string; n: number | string }>;
  return new Map(rows.map((r) => [r.action, Number(r.n)]));
}
