import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateLatest, migrateRollback, migrationStatus } from '../../server/db/migrate.js';
import { migrationSource } from '../../server/db/migrations/index.js';
import { createTestDatabase, databaseKind, type TestDatabase } from '../helpers/testDatabase.js';

const ALL = ['001_initial', '002_list_indexes'];

const TABLES = [
  'users', 'clients', 'requests', 'request_tests', 'samples', 'analyses', 'request_messages', 'audit_log',
  'sessions', 'one_time_codes', 'rate_limits', 'control_number_counters',
];

describe(`migrations (${databaseKind()})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());

  const indexesOfRequests = async (): Promise<string[]> =>
    database.kind === 'postgres'
      ? (await database.db('pg_indexes').where({ tablename: 'requests', schemaname: database.db.raw('current_schema()') }).pluck('indexname'))
      : (await database.db('sqlite_master').where({ type: 'index', tbl_name: 'requests' }).pluck('name'));

  const existing = async () => {
    const found: string[] = [];
    for (const t of TABLES) if (await database.db.schema.hasTable(t)) found.push(t);
    return found;
  };

  it('applies every table, rolls all back, and re-applies cleanly', async () => {
    expect(await migrateLatest(database.db)).toEqual(ALL);
    expect(await existing()).toEqual(TABLES);
    expect(await migrationStatus(database.db)).toEqual({ applied: ALL, pending: [] });

    expect(await migrateRollback(database.db, true)).toEqual([...ALL].reverse());
    expect(await existing()).toEqual([]);
    expect((await migrationStatus(database.db)).pending).toEqual(ALL);

    expect(await migrateLatest(database.db)).toEqual(ALL);
    expect(await existing()).toEqual(TABLES);
  });

  it('002_list_indexes adds the index of the released list and takes it away again', async () => {
    const releasedIndexes = async () => (await indexesOfRequests()).filter((name) => name.includes('released_at'));
    expect(await releasedIndexes()).toHaveLength(1);
    await database.db.migrate.down({ migrationSource, name: '002_list_indexes' });
    expect(await releasedIndexes()).toEqual([]);
    expect(await existing()).toEqual(TABLES);
    expect(await migrateLatest(database.db)).toEqual(['002_list_indexes']);
    expect(await releasedIndexes()).toHaveLength(1);
  });

  it('enforces unique e-mails and foreign keys', async () => {
    const row = { first_name: 'A', last_name: 'B', email: 'same@example.test', password_hash: 'x', role: 'client', created_at: 'now', updated_at: 'now' };
    await database.db('users').insert(row);
    await expect(database.db('users').insert(row)).rejects.toThrow();
    await expect(database.db('clients').insert({ user_id: 999999, company_name: 'X', lto_no: 'Y', classification: 'Z' })).rejects.toThrow();
  });
});
