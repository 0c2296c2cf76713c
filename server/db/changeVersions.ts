// Change versions: numbers in the table lab_versions that every commit changing a kind of data moves
// on, kept by triggers in the database itself, so a write by any instance or process (labctl, a
// second server on PostgreSQL) moves them. The read cache keeps an answer only while the number it
// was computed at is current (services/readCache.ts).
//
// Two kinds: 'data' (what the screens show) and 'sessions'. Session bookkeeping (the last-seen touch
// each signed-in user makes every minute), rate-limit counters, one-time codes, the mail outbox and
// settings move neither, so they never make other users' answers stale.
//
// PostgreSQL: a statement trigger notes the change kind for its transaction in lab_version_marks,
// once per transaction, and a deferred trigger moves the number at COMMIT. The row lock on the
// version row is held only while the transaction commits, not from its first write, so concurrent
// writers do not queue behind each other's whole transaction. SQLite has one writer at a time and
// no statement triggers: a row trigger moves the number inside the write itself.
import type { Knex } from 'knex';
import { isPostgres } from './knex.js';

export type ChangeKind = 'data' | 'sessions';

/** Tables whose changes move no version: bookkeeping that no cached answer shows. */
export const UNVERSIONED_TABLES = ['rate_limits', 'one_time_codes', 'outbox', 'settings', 'lab_versions', 'lab_version_marks', 'knex_migrations', 'knex_migrations_lock'];

/** The change kind a table's writes move: sessions their own, every other table 'data'. */
export const changeKindOf = (table: string): ChangeKind => (table === 'sessions' ? 'sessions' : 'data');

const triggerName = (table: string) => `${table}_moves_version`;

/** Creates lab_versions and, on PostgreSQL, the functions its triggers call. */
export async function createChangeVersions(knex: Knex): Promise<void> {
  await knex.schema.createTable('lab_versions', (t) => {
    t.string('name', 16).primary();
    t.bigInteger('n').notNullable();
  });
  await knex('lab_versions').insert([
    { name: 'data', n: 1 },
    { name: 'sessions', n: 1 },
  ]);
  if (!isPostgres(knex)) return;
  // Emptied by the deferred trigger in the transaction that filled it: never holds a committed row.
  await knex.raw('CREATE UNLOGGED TABLE lab_version_marks (txid bigint NOT NULL, name text NOT NULL, PRIMARY KEY (txid, name))');
  await knex.raw(`CREATE FUNCTION lab_mark_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO lab_version_marks (txid, name) VALUES (txid_current(), TG_ARGV[0]) ON CONFLICT DO NOTHING;
      RETURN NULL;
    END $$`);
  // Every kind this transaction marked, in name order: two transactions that move both never wait
  // for each other's rows in opposite orders.
  await knex.raw(`CREATE FUNCTION lab_move_versions() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE kind text;
    BEGIN
      FOR kind IN SELECT name FROM lab_version_marks WHERE txid = NEW.txid ORDER BY name LOOP
        UPDATE lab_versions SET n = n + 1 WHERE name = kind;
      END LOOP;
      DELETE FROM lab_version_marks WHERE txid = NEW.txid;
      RETURN NULL;
    END $$`);
  await knex.raw(
    'CREATE CONSTRAINT TRIGGER lab_move_versions AFTER INSERT ON lab_version_marks DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION lab_move_versions()',
  );
}

export async function dropChangeVersions(knex: Knex): Promise<void> {
  if (isPostgres(knex)) {
    await knex.raw('DROP TABLE IF EXISTS lab_version_marks');
    await knex.raw('DROP FUNCTION IF EXISTS lab_move_versions()');
    await knex.raw('DROP FUNCTION IF EXISTS lab_mark_change()');
  }
  await knex.schema.dropTableIfExists('lab_versions');
}

/** Makes every write to `table` move its kind's version. */
export async function trackChanges(knex: Knex, table: string): Promise<void> {
  const name = triggerName(table);
  const kind = changeKindOf(table);
  if (isPostgres(knex)) {
    await knex.raw(`CREATE TRIGGER ?? AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ?? FOR EACH STATEMENT EXECUTE FUNCTION lab_mark_change('${kind}')`, [name, table]);
    return;
  }
  for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
    await knex.raw(`CREATE TRIGGER ?? AFTER ${event} ON ?? BEGIN UPDATE lab_versions SET n = n + 1 WHERE name = '${kind}'; END`, [`${name}_${event.toLowerCase()}`, table]);
  }
}

export async function untrackChanges(knex: Knex, table: string): Promise<void> {
  const name = triggerName(table);
  if (isPostgres(knex)) {
    await knex.raw('DROP TRIGGER IF EXISTS ?? ON ??', [name, table]);
    return;
  }
  for (const event of ['insert', 'update', 'delete']) await knex.raw('DROP TRIGGER IF EXISTS ??', [`${name}_${event}`]);
}

/** The tables of the current schema (or SQLite file), for migrations and the test that every one is tracked. */
export async function tableNames(knex: Knex): Promise<string[]> {
  const rows: { name: string }[] = isPostgres(knex)
    ? (await knex.raw('SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()')).rows
    : await knex.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
  return rows.map((r) => r.name).sort();
}

/** Tables whose writes move no version although they are not bookkeeping: must stay empty. */
export async function untrackedTables(knex: Knex): Promise<string[]> {
  const triggers: { name: string }[] = isPostgres(knex)
    ? (await knex.raw('SELECT DISTINCT tgname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema()')).rows
    : await knex.raw("SELECT name FROM sqlite_master WHERE type = 'trigger'");
  const names = new Set(triggers.map((t) => t.name.replace(/_(insert|update|delete)$/, '')));
  return (await tableNames(knex)).filter((t) => !UNVERSIONED_TABLES.includes(t) && !names.has(triggerName(t)));
}

export interface Versions {
  data: number;
  sessions: number;
}

/** The current versions, as one read. */
export async function readVersions(db: Knex): Promise<Versions> {
  const rows: { name: string; n: number | string }[] = await db('lab_versions').select('name', 'n');
  return versionsOf(rows);
}

export function versionsOf(rows: { name: string; n: number | string }[]): Versions {
  const versions: Versions = { data: 0, sessions: 0 };
  for (const row of rows) versions[row.name as ChangeKind] = Number(row.n);
  return versions;
}
