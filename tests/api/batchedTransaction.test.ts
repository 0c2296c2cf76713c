import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateLatest } from '../../server/db/migrate.js';
import { inBatchedTransaction } from '../../server/db/transaction.js';
import { createTestDatabase, databaseKind, type TestDatabase } from '../helpers/testDatabase.js';

describe(`batched write transactions (${databaseKind()})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateLatest(database.db);
  });
  afterAll(() => database?.drop());

  it('commits every write sent at once, and a failing one rolls back only itself', async () => {
    const years = Array.from({ length: 30 }, (_, i) => 3000 + i);
    const outcomes = await Promise.allSettled(
      years.map((year) =>
        inBatchedTransaction(database.db, async (trx) => {
          await trx('control_number_counters').insert({ year, last_value: 1 });
          if (year === 3007) throw new Error('refused');
          return year;
        }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason.message)).toEqual(['refused']);
    expect(outcomes.filter((o) => o.status === 'fulfilled').map((o) => (o as PromiseFulfilledResult<number>).value)).toEqual(years.filter((y) => y !== 3007));
    const stored = (await database.db('control_number_counters').where('year', '>=', 3000).orderBy('year').pluck('year')).map(Number);
    expect(stored).toEqual(years.filter((y) => y !== 3007));
  });

  it('refuses a write that breaks a constraint without losing the others of its batch', async () => {
    const outcomes = await Promise.allSettled(
      [4000, 4000, 4001].map((year) => inBatchedTransaction(database.db, (trx) => trx('control_number_counters').insert({ year, last_value: 1 }))),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await database.db('control_number_counters').whereIn('year', [4000, 4001]).orderBy('year').pluck('year')).map(Number)).toEqual([4000, 4001]);
  });
});
