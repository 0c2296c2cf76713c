// Counts that a PostgreSQL statement trigger keeps in sharded rows (the audit trail's per action and
// day, actionCounts.ts; the progress rows' per scope and status, progressCounts.ts): each key's change
// is added to a count row of that key that no other transaction holds (FOR UPDATE SKIP LOCKED), or to
// a new row of its own (shard: its transaction id) when every one is held. Concurrent writers never
// wait for one another, and a key has more than one row only where transactions writing it overlapped;
// its count is the sum of its rows.
import type { Knex } from 'knex';

/**
 * Creates the trigger function `name`, which adds to `counts` (columns: the two `keys`, shard, n) the
 * rows of `changes`: a SELECT of the two keys and `d`, the change of each row, over the statement's
 * transition tables.
 */
export async function createShardedCounter(knex: Knex, name: string, counts: string, keys: readonly [string, string], changes: string): Promise<void> {
  const [a, b] = keys;
  await knex.raw(`CREATE FUNCTION ??() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE g record;
    BEGIN
      FOR g IN SELECT ${a}, ${b}, sum(d) AS d FROM (${changes}) c GROUP BY 1, 2 HAVING sum(d) <> 0 ORDER BY 1, 2 LOOP
        UPDATE ${counts} SET n = n + g.d WHERE (${a}, ${b}, shard) = (
          SELECT ${a}, ${b}, shard FROM ${counts} WHERE ${a} = g.${a} AND ${b} = g.${b} ORDER BY shard LIMIT 1 FOR UPDATE SKIP LOCKED);
        IF NOT FOUND THEN
          INSERT INTO ${counts} (${a}, ${b}, shard, n) VALUES (g.${a}, g.${b}, txid_current(), g.d);
        END IF;
      END LOOP;
      RETURN NULL;
    END $$`, [name]);
}
