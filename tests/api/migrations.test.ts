import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateLatest, migrateRollback, migrationStatus } from '../../server/db/migrate.js';
import { createTestDatabase, databaseKind, type TestDatabase } from '../helpers/testDatabase.js';

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

  const existing = async () => {
    const found: string[] = [];
    for (const t of TABLES) if (await database.db.schema.hasTable(t)) found.push(t);
    return found;
  };

  it('applies every table, rolls all back, and re-applies cleanly', async () => {
    expect(await migrateLatest(database.db)).toEqual(['001_initial']);
    expect(await existing()).toEqual(TABLES);
    expect(await migrationStatus(database.db)).toEqual({ applied: ['001_initial'], pending: [] });

    expect(await migrateRollback(database.db, true)).toEqual(['001_initial']);
    expect(await existing()).toEqual([]);
    expect((await migrationStatus(database.db)).pending).toEqual(['001_initial']);

    expect(await migrateLatest(database.db)).toEqual(['001_initial']);
    expect(await existing()).toEqual(TABLES);
  });

  it('enforces unique e-mails and foreign keys', async () => {
    const row = { first_name: 'A', last_name: 'B', email: 'same@example.test', password_hash: 'x', role: 'client', created_at: 'now', updated_at: 'now' };
    await database.db('users').insert(row);
    await expect(database.db('users').insert(row)).rejects.toThrow();
    await expect(database.db('clients').insert({ user_id: 999999, company_name: 'X', lto_no: 'Y', classification: 'Z' })).rejects.toThrow();
  });
});
