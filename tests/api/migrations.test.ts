import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateLatest, migrateRollback, migrationStatus } from '../../server/db/migrate.js';
import { migrationSource } from '../../server/db/migrations/index.js';
import { systemClock } from '../../server/clock.js';
import { createClientAccount } from '../../server/services/clients.js';
import { insertRequests } from '../../fixtures/requests.js';
import { createTestDatabase, databaseKind, type TestDatabase } from '../helpers/testDatabase.js';

const ALL = ['001_initial', '002_list_indexes', '004_certificates', '005_reception', '006_mail_outbox', '007_report_counts', '008_list_search_indexes', '009_client_address_withdrawals', '010_perf_indexes', '011_audit_truncate', '012_settings', '013_request_progress', '014_change_versions', '015_turnaround_paging', '016_audit_trail', '017_request_search', '018_version_triggers', '019_specifications', '020_turnaround_weeks', '021_earlier_versions', '022_progress_conformity', '023_sample_species', '024_progress_counts', '025_analyses_write_indexes', '026_version_marks_per_request', '027_wider_windows'];

const TABLES = [
  'users', 'clients', 'requests', 'request_tests', 'samples', 'analyses', 'request_messages', 'audit_log',
  'sessions', 'one_time_codes', 'rate_limits', 'control_number_counters', 'reports', 'report_counts', 'sample_receipts', 'outbox', 'report_withdrawals', 'settings', 'request_progress', 'lab_versions', 'audit_counts',
];

describe(`migrations (${databaseKind()})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());

  const indexesOf = async (table: string): Promise<string[]> =>
    database.kind === 'postgres'
      ? (await database.db('pg_indexes').where({ tablename: table, schemaname: database.db.raw('current_schema()') }).pluck('indexname'))
      : (await database.db('sqlite_master').where({ type: 'index', tbl_name: table }).pluck('name'));
  const indexesOfRequests = () => indexesOf('requests');

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

  it('010_perf_indexes widens the analyses index of the queues to cover remark and value, and narrows it again', async () => {
    const queueIndexes = async () => (await indexesOf('analyses')).filter((name) => name.startsWith('analyses_request_id_result_group'));
    expect(await queueIndexes()).toEqual(['analyses_request_id_result_group_remark_value_index']);
    await database.db.migrate.down({ migrationSource, name: '010_perf_indexes' });
    expect(await queueIndexes()).toEqual(['analyses_request_id_result_group_index']);
    expect(await migrateLatest(database.db)).toEqual(['010_perf_indexes']);
    expect(await queueIndexes()).toEqual(['analyses_request_id_result_group_remark_value_index']);
  });

  it('025_analyses_write_indexes drops the report index the counters replaced and makes the decisions index partial, and puts both back', async () => {
    // Each index of analyses with its definition: partial ones name their WHERE.
    const definitions = async () =>
      database.kind === 'postgres'
        ? (await database.db('pg_indexes').where({ tablename: 'analyses', schemaname: database.db.raw('current_schema()') }).select('indexname as name', 'indexdef as sql'))
        : (await database.db('sqlite_master').where({ type: 'index', tbl_name: 'analyses' }).select('name', 'sql'));
    const reportIndexes = async () =>
      (await definitions())
        .filter((i: { name: string }) => /test_code_report_month_remark|decision_outcome/.test(i.name))
        .map((i: { name: string; sql: string }) => `${i.name}${/where/i.test(i.sql) ? ' (partial)' : ''}`)
        .sort();
    expect(await reportIndexes()).toEqual(['analyses_decision_outcome_report_month_test_code_index (partial)']);
    await database.db.migrate.down({ migrationSource, name: '025_analyses_write_indexes' });
    expect(await reportIndexes()).toEqual(['analyses_decision_outcome_report_month_test_code_index', 'analyses_test_code_report_month_remark_index']);
    expect(await migrateLatest(database.db)).toEqual(['025_analyses_write_indexes']);
    expect(await reportIndexes()).toEqual(['analyses_decision_outcome_report_month_test_code_index (partial)']);
  });

  it('008_list_search_indexes adds the indexes of the queues (due date, client and status) and takes them away again', async () => {
    const queueIndexes = async () => (await indexesOfRequests()).filter((name) => name.includes('due_date') || name.includes('client_user_id_status'));
    expect(await queueIndexes()).toHaveLength(3);
    await database.db.migrate.down({ migrationSource, name: '008_list_search_indexes' });
    expect(await queueIndexes()).toEqual([]);
    expect(await migrateLatest(database.db)).toEqual(['008_list_search_indexes']);
    expect(await queueIndexes()).toHaveLength(3);
  });

  it('009_client_address_withdrawals adds the client address and the report withdrawals, and takes them away again', async () => {
    expect(await database.db.schema.hasColumn('clients', 'address')).toBe(true);
    await database.db.migrate.down({ migrationSource, name: '009_client_address_withdrawals' });
    expect(await database.db.schema.hasColumn('clients', 'address')).toBe(false);
    expect(await database.db.schema.hasTable('report_withdrawals')).toBe(false);
    expect(await migrateLatest(database.db)).toEqual(['009_client_address_withdrawals']);
    expect(await existing()).toEqual(TABLES);
  });

  it('015_turnaround_paging adds the indexes of the open requests and takes them away again', async () => {
    const openIndexes = async () => [...(await indexesOfRequests()), ...(await indexesOf('request_progress'))].filter((name) => name.includes('_open_')).sort();
    expect(await openIndexes()).toEqual(['request_progress_open_index', 'requests_open_urgency_index']);
    await database.db.migrate.down({ migrationSource, name: '015_turnaround_paging' });
    expect(await openIndexes()).toEqual([]);
    expect(await migrateLatest(database.db)).toEqual(['015_turnaround_paging']);
    expect(await openIndexes()).toHaveLength(2);
  });

  it('only reads a database that is exactly this release, and refuses one with a migration this release does not know', async () => {
    await migrateLatest(database.db);
    expect(await migrateLatest(database.db)).toEqual([]);
    await database.db('knex_migrations').insert({ name: '099_from_a_newer_release', batch: 99, migration_time: new Date() });
    await expect(migrateLatest(database.db)).rejects.toThrow(/corrupt.*099_from_a_newer_release/);
    await database.db('knex_migrations').where({ name: '099_from_a_newer_release' }).delete();
  });

  it('enforces unique e-mails and foreign keys', async () => {
    const row = { first_name: 'A', last_name: 'B', email: 'same@example.test', password_hash: 'x', role: 'client', created_at: 'now', updated_at: 'now' };
    await database.db('users').insert(row);
    await expect(database.db('users').insert(row)).rejects.toThrow();
    await expect(database.db('clients').insert({ user_id: 999999, company_name: 'X', lto_no: 'Y', classification: 'Z' })).rejects.toThrow();
  });

  it('005_reception keeps audit_log append-only: the database refuses UPDATE and DELETE, and rollback lifts that', async () => {
    await database.db('audit_log').insert({ at: '2026-01-01T00:00:00.000Z', action: 'test.entry' });
    await expect(database.db('audit_log').where('action', 'test.entry').update({ action: 'test.changed' })).rejects.toThrow(/append-only/);
    await expect(database.db('audit_log').where('action', 'test.entry').delete()).rejects.toThrow(/append-only/);
    expect(Number((await database.db('audit_log').where('action', 'test.entry').count({ n: '*' }))[0].n)).toBe(1);

    // 016 replaced the indexes 005 made: it goes first.
    await database.db.migrate.down({ migrationSource, name: '016_audit_trail' });
    await database.db.migrate.down({ migrationSource, name: '005_reception' });
    expect(await database.db.schema.hasTable('sample_receipts')).toBe(false);
    expect(await database.db('audit_log').where('action', 'test.entry').update({ action: 'test.changed' })).toBe(1);
    expect(await migrateLatest(database.db)).toEqual(['005_reception', '016_audit_trail']);
    await expect(database.db('audit_log').where('action', 'test.changed').delete()).rejects.toThrow(/append-only/);
  });

  it('016_audit_trail counts the entries already there and every later one, ends the indexes in id, and rolls both back', async () => {
    const counted = async () => Number((await database.db('audit_counts').where({ action: 'test.counted', day: '2026-01-03' }).sum({ n: 'n' }))[0].n);
    const trailIndexes = async () => (await indexesOf('audit_log')).filter((name) => !name.includes('request_id') && name.endsWith('_index')).sort();
    expect(await trailIndexes()).toEqual(['audit_log_action_at_id_index', 'audit_log_actor_user_id_at_id_index', 'audit_log_at_id_index']);
    await database.db.migrate.down({ migrationSource, name: '016_audit_trail' });
    expect(await database.db.schema.hasTable('audit_counts')).toBe(false);
    expect(await trailIndexes()).toEqual(['audit_log_action_at_index', 'audit_log_actor_user_id_at_index', 'audit_log_at_index']);
    await database.db('audit_log').insert([{ at: '2026-01-03T10:00:00.000Z', action: 'test.counted' }, { at: '2026-01-03T23:59:59.999Z', action: 'test.counted' }]);
    expect(await migrateLatest(database.db)).toEqual(['016_audit_trail']);
    expect(await counted()).toBe(2);
    await database.db('audit_log').insert([{ at: '2026-01-03T12:00:00.000Z', action: 'test.counted' }, { at: '2026-01-04T00:00:00.000Z', action: 'test.counted' }]);
    expect(await counted()).toBe(3);
  });

  it('017_request_search adds the search index of the lists (a trigram index) and takes it away again', async () => {
    const searchIndex = async () =>
      database.kind === 'postgres' ? (await indexesOfRequests()).includes('requests_search_index') : database.db.schema.hasTable('request_search');
    expect(await searchIndex()).toBe(true);
    await database.db.migrate.down({ migrationSource, name: '017_request_search' });
    expect(await searchIndex()).toBe(false);
    expect(await migrateLatest(database.db)).toEqual(['017_request_search']);
    expect(await searchIndex()).toBe(true);
  });

  it('011_audit_truncate refuses emptying audit_log at once (TRUNCATE on PostgreSQL, DELETE FROM on SQLite)', async () => {
    const count = async () => Number((await database.db('audit_log').count({ n: '*' }))[0].n);
    await database.db('audit_log').insert({ at: '2026-01-02T00:00:00.000Z', action: 'test.kept' });
    const before = await count();
    await expect(database.db('audit_log').truncate()).rejects.toThrow(/append-only/);
    await expect(database.db.raw(database.kind === 'postgres' ? 'TRUNCATE audit_log CASCADE' : 'DELETE FROM audit_log')).rejects.toThrow(/append-only/);
    expect(await count()).toBe(before);
  });

  it("021_earlier_versions adds the ':earlier' versions, which a write to a request submitted long ago moves", async () => {
    const earlier = () => database.db('lab_versions').where('name', 'status:PENDING_REVIEW:earlier').sum({ n: 'n' }).first();
    await database.db.migrate.down({ migrationSource, name: '021_earlier_versions' });
    expect((await earlier())?.n ?? null).toBeNull();
    expect(await migrateLatest(database.db)).toEqual(['021_earlier_versions']);
    const before = Number((await earlier())!.n);
    const client = await createClientAccount(
      database.db,
      systemClock,
      { email: 'earlier@example.test', username: null, password: 'correct horse battery', firstName: 'E', lastName: 'V', contactNumber: '639171234567', verified: true },
      { companyName: 'Earlier Meats', ltoNo: 'LTO-21', classification: 'Importer' },
    );
    await insertRequests(database.db, [{ clientUserId: client.id, tests: ['eColi'], status: 'PENDING_REVIEW', submissionDate: '2025-01-02T08:00:00.000Z' }]);
    expect(Number((await earlier())!.n)).toBeGreaterThan(before);
  });

  it("027_wider_windows adds the versions of the 90 and 365 days' windows, which only writes to requests submitted before them move", async () => {
    const yearly = async () => Number((await database.db('lab_versions').where('name', 'status:PENDING_REVIEW:earlier:365').sum({ n: 'n' }).first())?.n ?? Number.NaN);
    await database.db.migrate.down({ migrationSource, name: '027_wider_windows' });
    expect(await yearly()).toBeNaN();
    expect(await migrateLatest(database.db)).toEqual(['027_wider_windows']);
    const client = await createClientAccount(
      database.db,
      systemClock,
      { email: 'wider@example.test', username: null, password: 'correct horse battery', firstName: 'W', lastName: 'V', contactNumber: '639171234567', verified: true },
      { companyName: 'Wider Meats', ltoNo: 'LTO-27', classification: 'Importer' },
    );
    const submitted = (days: number) => insertRequests(database.db, [{ clientUserId: client.id, tests: ['eColi'], status: 'PENDING_REVIEW', submissionDate: new Date(Date.now() - days * 86_400_000).toISOString() }]);
    const before = await yearly();
    await submitted(100);
    expect(await yearly()).toBe(before);
    await submitted(400);
    expect(await yearly()).toBeGreaterThan(before);
  });

  it('023_sample_species adds the species of origin of samples (existing samples: not stated), and takes it away keeping the change triggers', async () => {
    const client = await createClientAccount(
      database.db,
      systemClock,
      { email: 'species@example.test', username: null, password: 'correct horse battery', firstName: 'S', lastName: 'O', contactNumber: '639171234567', verified: true },
      { companyName: 'Species Meats', ltoNo: 'LTO-23', classification: 'Importer' },
    );
    const triggers = async () => (database.kind === 'postgres'
      ? (await database.db.raw("SELECT tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relname = 'samples' AND NOT tgisinternal ORDER BY tgname")).rows.map((r: { tgname: string }) => r.tgname)
      : await database.db('sqlite_master').where({ type: 'trigger', tbl_name: 'samples' }).orderBy('name').pluck('name'));
    const [old] = await insertRequests(database.db, [{ clientUserId: client.id, tests: ['ractopamine'], samples: ['Pork belly'], sampleSpecies: ['swine'] }]);
    const before = await triggers();
    expect(before.length).toBeGreaterThan(0);
    await database.db.migrate.down({ migrationSource, name: '023_sample_species' });
    expect(await database.db.schema.hasColumn('samples', 'species')).toBe(false);
    expect(await triggers()).toEqual(before);
    expect(await database.db('samples').where({ id: old.sampleIds[0] }).first('sample_type_description')).toEqual({ sample_type_description: 'Pork belly' });
    expect(await migrateLatest(database.db)).toEqual(['023_sample_species']);
    expect(await database.db('samples').where({ id: old.sampleIds[0] }).first('species')).toEqual({ species: null });
    await database.db('samples').where({ id: old.sampleIds[0] }).update({ species: 'swine' });
    expect(await database.db('samples').where({ id: old.sampleIds[0] }).first('species')).toEqual({ species: 'swine' });
  });

  if (databaseKind() === 'postgres') {
    it('018_version_triggers gives a database made with a trigger per transition table one trigger a statement, as a new database has', async () => {
      const triggersOf = async (table: string) =>
        (await database.db.raw('SELECT tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relname = ? AND NOT tgisinternal ORDER BY tgname', [table])).rows.map((r: { tgname: string }) => r.tgname);
      const combined = ['samples_moves_version', 'samples_moves_version_delete', 'samples_moves_version_insert', 'samples_moves_version_update'];
      expect(await triggersOf('samples')).toEqual(combined);
      // As 014 made them before: a trigger per event and transition table, calling lab_mark_row_statuses.
      await database.db.raw('DROP TRIGGER samples_moves_version_insert ON samples');
      await database.db.raw(`CREATE FUNCTION lab_mark_row_statuses() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`);
      await database.db.raw('CREATE TRIGGER samples_moves_version_insert_new AFTER INSERT ON samples REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION lab_mark_row_statuses()');
      await database.db.migrate.down({ migrationSource, name: '018_version_triggers' });
      expect(await migrateLatest(database.db)).toEqual(['018_version_triggers']);
      expect(await triggersOf('samples')).toEqual(combined);
      const functions = await database.db.raw("SELECT proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = current_schema() AND proname LIKE 'lab\\_mark\\_%' ORDER BY proname");
      expect(functions.rows.map((r: { proname: string }) => r.proname)).toEqual(['lab_mark_change', 'lab_mark_requests', 'lab_mark_requests_update', 'lab_mark_rows', 'lab_mark_rows_update']);
    });
  }
});
