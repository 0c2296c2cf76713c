// Change versions: numbers in the table lab_versions that every commit changing a kind of data moves
// on, kept by triggers in the database itself, so a write by any instance or process (labctl, a
// second server on PostgreSQL) moves them. The read cache keeps an answer only while the numbers of
// the kinds it depends on are those it was computed at (services/readCache.ts).
//
// The kinds: 'data', moved by every write that a screen can show; 'status:<STATUS>', moved by a
// write to a request in that status or to a row of one (samples, analyses, ...), before or after the
// write, so a work queue of one status is computed again only when a request of its status changed;
// 'status:<STATUS>:earlier', moved as well when that request was submitted before the window of
// recent work (14 days before the day of the write, in UTC), and the same for the wider windows of
// EARLIER_WINDOWS (90 and 365 days), so a page of a list sorted oldest first that ends before a
// window depends only on that window's versions and stays valid while the day's work lands on
// requests within it (services/readCache.ts pageKinds): a queue's oldest page is kept while testers
// work on last month's requests, not only on this fortnight's;
// 'people', moved by users and clients; and 'sessions'. Session bookkeeping (the last-seen touch each
// signed-in user makes every minute), rate-limit counters, one-time codes, the mail outbox and
// settings move only 'sessions' or nothing, so they never make other users' answers stale.
//
// PostgreSQL: one statement trigger a statement notes the kinds a transaction moves in
// lab_version_marks, once per kind and transaction (on the request tables it reads the statuses from
// the statement's transition tables), and a deferred trigger moves the numbers at COMMIT, in name
// order, once a transaction. A version
// row is locked only while a transaction commits, not from its first write, and each kind is kept in
// SHARDS rows (a transaction moves the row of its id modulo SHARDS; a kind's number is their sum), so
// concurrent commits rarely wait for one another. SQLite has one writer at a time and no statement
// triggers: row triggers move the numbers of its one shard inside the write itself.
import type { Knex } from 'knex';
import { REQUEST_STATUSES, type RequestStatus } from '../domain/requestStatus.js';
import { isPostgres } from './knex.js';
import { REQUEST_SEARCH_TABLES } from './requestSearch.js';

/**
 * The windows of work, narrowest first: a write to a request submitted before the day `days` before
 * the write's own (UTC) moves its status's version of that window (the status with `suffix`) as
 * well as its status's own; one submitted within the window moves only the latter. The first is the
 * window of recent work (migration 021), the wider ones came with migration 027.
 */
export const EARLIER_WINDOWS = [
  { days: 14, suffix: ':earlier' },
  { days: 90, suffix: ':earlier:90' },
  { days: 365, suffix: ':earlier:365' },
] as const;
export type EarlierWindow = (typeof EARLIER_WINDOWS)[number];

export type StatusKind = `status:${RequestStatus}` | `status:${RequestStatus}${EarlierWindow['suffix']}`;
export type ChangeKind = 'data' | 'sessions' | 'people' | StatusKind;

export const statusKind = (status: RequestStatus): StatusKind => `status:${status}`;
/** Changes to requests in `status` submitted before `window` (by default the window of recent work). */
export const earlierStatusKind = (status: RequestStatus, window: EarlierWindow = EARLIER_WINDOWS[0]): StatusKind => `status:${status}${window.suffix}`;
/** The window of recent work, in days. */
export const EARLIER_AFTER_DAYS = EARLIER_WINDOWS[0].days;
/** The name under which a read of the versions also gives the database's day (days since 1970-01-01, UTC). */
export const DAY_OF_READ = 'day';
const windowKinds = (windows: readonly EarlierWindow[]) => windows.flatMap((window) => REQUEST_STATUSES.map((status) => earlierStatusKind(status, window)));
const KINDS: ChangeKind[] = ['data', 'sessions', 'people', ...REQUEST_STATUSES.map(statusKind), ...windowKinds(EARLIER_WINDOWS)];

/** The kinds migration 021 added to databases that 014 created. */
export const EARLIER_KINDS: ChangeKind[] = windowKinds(EARLIER_WINDOWS.slice(0, 1));
/** The kinds of the wider windows, which migration 027 added. */
export const WIDER_WINDOW_KINDS: ChangeKind[] = windowKinds(EARLIER_WINDOWS.slice(1));

/**
 * Tables whose changes move no version: bookkeeping that no cached answer shows, and counts derived
 * from other tables in the same transaction (request_progress, progress_counts, report_counts, audit_counts, and the
 * search index of the requests), whose writes move the versions already; their own triggers would
 * only repeat that work on every write.
 */
export const UNVERSIONED_TABLES = [
  'rate_limits', 'one_time_codes', 'outbox', 'settings', 'lab_versions', 'lab_version_marks', 'knex_migrations', 'knex_migrations_lock',
  'request_progress', 'progress_counts', 'report_counts', 'audit_counts', ...REQUEST_SEARCH_TABLES,
];

/** How a table's writes move versions. */
type Tracking = { kind: 'sessions' } | { kind: 'people' } | { kind: 'requests' } | { kind: 'request rows' } | { kind: 'data' };

/** Rows of one request (samples, analyses, receipts...): a write moves that request's status. */
async function trackingOf(knex: Knex, table: string): Promise<Tracking> {
  if (table === 'sessions' || table === 'requests') return { kind: table };
  if (table === 'users' || table === 'clients') return { kind: 'people' };
  // The audit trail names requests but no work queue shows it.
  if (table !== 'audit_log' && (await knex.schema.hasColumn(table, 'request_id'))) return { kind: 'request rows' };
  return { kind: 'data' };
}

const triggerName = (table: string) => `${table}_moves_version`;

const SHARDS = 8;

/** Creates lab_versions and, on PostgreSQL, the functions its triggers call. */
export async function createChangeVersions(knex: Knex): Promise<void> {
  await knex.schema.createTable('lab_versions', (t) => {
    t.string('name', 40).notNullable();
    t.integer('shard').notNullable();
    t.bigInteger('n').notNullable();
    t.primary(['name', 'shard']);
  });
  await addVersionRows(knex, KINDS);
  if (!isPostgres(knex)) return;
  // Emptied by the deferred trigger in the transaction that filled it: never holds a committed row.
  await knex.raw('CREATE UNLOGGED TABLE lab_version_marks (txid bigint NOT NULL, name text NOT NULL, PRIMARY KEY (txid, name))');
  await createVersionFunctions(knex);
}

/** The rows of `kinds` in lab_versions, each at 1 (rows there already are kept). */
export async function addVersionRows(knex: Knex, kinds: readonly ChangeKind[]): Promise<void> {
  const shards = isPostgres(knex) ? SHARDS : 1;
  await knex('lab_versions')
    .insert(kinds.flatMap((name) => Array.from({ length: shards }, (_, shard) => ({ name, shard, n: 1 }))))
    .onConflict(['name', 'shard'])
    .ignore();
}

/**
 * Brings a database to new kinds (a migration's): their rows, and triggers that mark them; on
 * PostgreSQL the functions the triggers call, on SQLite the row triggers, which hold their
 * statements themselves.
 */
export async function addKinds(knex: Knex, kinds: readonly ChangeKind[]): Promise<void> {
  await addVersionRows(knex, kinds);
  if (isPostgres(knex)) return createVersionFunctions(knex);
  for (const table of await trackedTables(knex)) {
    await untrackChanges(knex, table);
    await trackChanges(knex, table);
  }
}

/** The status's own version (no suffix, always moved) and each window's, as rows (suffix, days). */
const MOVED_ROWS = ["SELECT '' AS suffix, 0 AS days", ...EARLIER_WINDOWS.map((w) => `SELECT '${w.suffix}', ${w.days}`)].join(' UNION ALL ');

/**
 * PostgreSQL: SQL of the names of the versions that writes to the requests of `requests` (a query of
 * their `status` and `submission_date`) move: each one's status's, and each window's it was
 * submitted before (in UTC days before the statement's own).
 */
const pgMovedNames = (requests: string) =>
  `SELECT 'status:' || s.status || w.suffix AS name FROM (${requests}) s CROSS JOIN (${MOVED_ROWS}) w
   WHERE w.days = 0 OR s.submission_date < to_char((now() AT TIME ZONE 'UTC')::date - w.days, 'YYYY-MM-DD')`;

/**
 * SQLite: the same names for a trigger's row `row` (NEW or OLD), as a list for IN: of the request
 * itself, or (`ofItsRequest`) of the request the row belongs to, a lookup by id each. A window's is
 * NULL, which names nothing, for a request submitted within it. A list of lookups cost a third of a
 * join of the windows as rows.
 */
function sqliteMovedNames(row: string, ofItsRequest: boolean): string {
  const column = (name: string) => (ofItsRequest ? name : `${row}.${name}`);
  const status = `'status:' || ${column('status')}`;
  const names = [status, ...EARLIER_WINDOWS.map((w) => `CASE WHEN ${column('submission_date')} < date('now', '-${w.days} days') THEN ${status} || '${w.suffix}' END`)];
  return names.map((name) => (ofItsRequest ? `(SELECT ${name} FROM requests WHERE id = ${row}.request_id)` : name)).join(', ');
}

/**
 * The statuses a statement of a request table moves, read from its transition tables: `changed` for
 * an insert or a delete, `old_rows` and `new_rows` for an update.
 */
const STATUS_SOURCES = {
  // A request's own rows carry its status and submission.
  requests: (tables: readonly string[]) => tables.map((t) => `SELECT status, submission_date FROM ${t}`).join(' UNION '),
  // One index lookup per request, whatever the planner knows: with no statistics (a fresh load,
  // autovacuum off) a plain join chose to scan every request for each statement. The requests are
  // told apart by DISTINCT over UNION ALL, which hashes: a UNION of the two transition tables, or
  // none on an insert, looked a request up per row (5,000 results written: 36-53 ms, now 7-9 ms).
  rows: (tables: readonly string[]) =>
    `SELECT r.status, r.submission_date FROM (SELECT DISTINCT request_id FROM (${tables.map((t) => `SELECT request_id FROM ${t}`).join(' UNION ALL ')}) u) c CROSS JOIN LATERAL (SELECT status, submission_date FROM requests WHERE id = c.request_id) r`,
} as const;

const MARK_FUNCTIONS = Object.keys(STATUS_SOURCES).flatMap((table) => [`lab_mark_${table}`, `lab_mark_${table}_update`]);

/**
 * The PostgreSQL functions the triggers call and the deferred trigger that moves the numbers
 * (CREATE OR REPLACE: migration 018 brings older databases to these). Every transaction that marks
 * anything marks 'data' or 'sessions', so the deferred trigger fires only on those two marks, once
 * or twice a transaction, not once per mark.
 */
export async function createVersionFunctions(knex: Knex): Promise<void> {
  // Marks the kinds named in the trigger's arguments.
  await knex.raw(`CREATE OR REPLACE FUNCTION lab_mark_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO lab_version_marks (txid, name) SELECT txid_current(), unnest(TG_ARGV) ON CONFLICT DO NOTHING;
      RETURN NULL;
    END $$`);
  // 'data' and the statuses of the requests a statement changed, or of the requests whose rows it
  // changed, with each window's for those submitted before it: one call a statement (an update
  // reads both its transition tables).
  for (const [table, source] of Object.entries(STATUS_SOURCES)) {
    for (const [suffix, tables] of [['', ['changed']], ['_update', ['old_rows', 'new_rows']]] as const) {
      const statuses = source(tables);
      await knex.raw(`CREATE OR REPLACE FUNCTION lab_mark_${table}${suffix}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO lab_version_marks (txid, name)
            SELECT txid_current(), 'data'
            UNION SELECT txid_current(), k.name FROM (${pgMovedNames(statuses)}) k
            ON CONFLICT DO NOTHING;
          RETURN NULL;
        END $$`);
    }
  }
  // Every kind this transaction marked, in name order: two transactions that move both never wait
  // for each other's rows in opposite orders.
  await knex.raw(`CREATE OR REPLACE FUNCTION lab_move_versions() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE kind text;
    BEGIN
      FOR kind IN SELECT name FROM lab_version_marks WHERE txid = NEW.txid ORDER BY name LOOP
        UPDATE lab_versions SET n = n + 1 WHERE name = kind AND shard = NEW.txid % ${SHARDS};
      END LOOP;
      DELETE FROM lab_version_marks WHERE txid = NEW.txid;
      RETURN NULL;
    END $$`);
  await knex.raw('DROP TRIGGER IF EXISTS lab_move_versions ON lab_version_marks');
  await knex.raw(
    `CREATE CONSTRAINT TRIGGER lab_move_versions AFTER INSERT ON lab_version_marks DEFERRABLE INITIALLY DEFERRED
     FOR EACH ROW WHEN (NEW.name IN ('data', 'sessions')) EXECUTE FUNCTION lab_move_versions()`,
  );
}

export async function dropChangeVersions(knex: Knex): Promise<void> {
  if (isPostgres(knex)) {
    await knex.raw('DROP TABLE IF EXISTS lab_version_marks');
    for (const fn of ['lab_move_versions', 'lab_mark_change', ...MARK_FUNCTIONS]) await knex.raw(`DROP FUNCTION IF EXISTS ${fn}()`);
  }
  await knex.schema.dropTableIfExists('lab_versions');
}

const EVENTS = ['INSERT', 'UPDATE', 'DELETE'] as const;
/** Before migration 018, PostgreSQL gave a request table a trigger per event and transition table. */
const SPLIT_TRIGGER_SUFFIXES = ['insert_new', 'update_old', 'update_new', 'delete_old'];
/** The functions those triggers called. */
export const SPLIT_MARK_FUNCTIONS = ['lab_mark_request_statuses', 'lab_mark_row_statuses'];

/** Whether the current PostgreSQL schema still has those triggers. */
export async function hasSplitTriggers(knex: Knex): Promise<boolean> {
  const found = await knex.raw(
    "SELECT 1 FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND t.tgname LIKE '%\\_insert\\_new' LIMIT 1",
  );
  return found.rows.length > 0;
}

/** Makes every write to `table` move the versions of what it changes. */
export async function trackChanges(knex: Knex, table: string): Promise<void> {
  const tracking = await trackingOf(knex, table);
  const name = triggerName(table);
  const own = tracking.kind === 'sessions' ? ['sessions'] : tracking.kind === 'people' ? ['data', 'people'] : ['data'];
  if (isPostgres(knex)) {
    const kinds = own.map((k) => `'${k}'`).join(', ');
    if (tracking.kind !== 'requests' && tracking.kind !== 'request rows') {
      await knex.raw(`CREATE TRIGGER ?? AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ?? FOR EACH STATEMENT EXECUTE FUNCTION lab_mark_change(${kinds})`, [name, table]);
      return;
    }
    // One trigger a statement: 'data' and the statuses, from the statement's transition tables
    // (PostgreSQL allows them only on a trigger of a single event). TRUNCATE has none.
    const fn = `lab_mark_${tracking.kind === 'requests' ? 'requests' : 'rows'}`;
    await knex.raw(`CREATE TRIGGER ?? AFTER TRUNCATE ON ?? FOR EACH STATEMENT EXECUTE FUNCTION lab_mark_change(${kinds})`, [name, table]);
    for (const [event, tables, suffix] of [
      ['INSERT', 'NEW TABLE AS changed', ''],
      ['UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows', '_update'],
      ['DELETE', 'OLD TABLE AS changed', ''],
    ] as const) {
      await knex.raw(`CREATE TRIGGER ?? AFTER ${event} ON ?? REFERENCING ${tables} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}${suffix}()`, [`${name}_${event.toLowerCase()}`, table]);
    }
    return;
  }
  for (const event of EVENTS) {
    const moves = own.map((k) => `UPDATE lab_versions SET n = n + 1 WHERE name = '${k}';`);
    for (const row of event === 'INSERT' ? ['NEW'] : event === 'DELETE' ? ['OLD'] : ['OLD', 'NEW']) {
      if (tracking.kind === 'requests' || tracking.kind === 'request rows') {
        const ofItsRequest = tracking.kind === 'request rows';
        // An update's old row names the same versions as its new one unless it moved what they come
        // from: most updates (a result entered, a request's details) move them once, not twice.
        const unlessSame = row === 'OLD' && event === 'UPDATE' ? `${ofItsRequest ? 'OLD.request_id IS NOT NEW.request_id' : '(OLD.status IS NOT NEW.status OR OLD.submission_date IS NOT NEW.submission_date)'} AND ` : '';
        moves.push(`UPDATE lab_versions SET n = n + 1 WHERE ${unlessSame}name IN (${sqliteMovedNames(row, ofItsRequest)});`);
      }
    }
    await knex.raw(`CREATE TRIGGER ?? AFTER ${event} ON ?? BEGIN ${moves.join(' ')} END`, [`${name}_${event.toLowerCase()}`, table]);
  }
}

export async function untrackChanges(knex: Knex, table: string): Promise<void> {
  const name = triggerName(table);
  if (isPostgres(knex)) {
    await knex.raw('DROP TRIGGER IF EXISTS ?? ON ??', [name, table]);
    for (const suffix of [...EVENTS.map((e) => e.toLowerCase()), ...SPLIT_TRIGGER_SUFFIXES]) await knex.raw('DROP TRIGGER IF EXISTS ?? ON ??', [`${name}_${suffix}`, table]);
    return;
  }
  for (const event of EVENTS) await knex.raw('DROP TRIGGER IF EXISTS ??', [`${name}_${event.toLowerCase()}`]);
}

/** The tables whose writes move versions. */
export const trackedTables = async (knex: Knex): Promise<string[]> => (await tableNames(knex)).filter((t) => !UNVERSIONED_TABLES.includes(t));

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
  const names = new Set(triggers.map((t) => t.name.replace(/_(insert|update|delete)(_new|_old)?$/, '')));
  return (await tableNames(knex)).filter((t) => !UNVERSIONED_TABLES.includes(t) && !names.has(triggerName(t)));
}

/** Every kind's number, as read together. */
export type Versions = Readonly<Record<string, number>>;

export function versionsOf(rows: { name: string; n: number | string }[]): Versions {
  return Object.fromEntries(rows.map((row) => [row.name, Number(row.n)]));
}

/** What `kinds` were at `versions`: equal stamps, nothing of those kinds committed in between. */
export const stampOf = (versions: Versions, kinds: readonly ChangeKind[]): string => kinds.map((k) => versions[k] ?? 0).join('.');
