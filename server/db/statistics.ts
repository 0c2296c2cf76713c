// The planner's statistics after bulk work (seed, results import, restore, a migration's backfill).
// PostgreSQL plans from statistics that only ANALYZE (or autovacuum, which a freshly loaded or
// autovacuum-less server does not run in time) gathers: without them it guesses a few rows per
// table and picks nested loops over tens of thousands. SQLite's PRAGMA optimize analyzes the tables
// whose size changed enough to matter, with a bounded sample so it stays quick on any size.
import type { Knex } from 'knex';
import { isPostgres } from './knex.js';

/**
 * A table whose statistics to refresh: all its columns, or only `columns` (those bulk work changed:
 * the other columns' statistics still hold, and ANALYZE of a wide table's text columns is most of
 * its time; the table's row count is taken either way).
 */
export type StatisticsOf = string | { table: string; columns: readonly string[] };

const tableOf = (entry: StatisticsOf) => (typeof entry === 'string' ? entry : entry.table);
const columnsOf = (entry: StatisticsOf) => (typeof entry === 'string' ? [] : entry.columns);

/**
 * Brings the query planner's statistics up to date; call after writing many rows (`only` those of the
 * tables it wrote, on PostgreSQL; SQLite's optimize picks them itself). `vacuum: false`
 * after work that changed existing rows in place (a results import): ANALYZE keeps the statistics
 * current, and vacuuming the pages of 100,000 updated analyses took 2-4 s, as long as half the import.
 */
export async function refreshStatistics(
  db: Knex | Knex.Transaction,
  { vacuum = true, only }: { vacuum?: boolean; only?: readonly StatisticsOf[] } = {},
): Promise<void> {
  if (isPostgres(db as Knex)) {
    // This schema's tables only: a database may hold others (a database-wide ANALYZE reads them all).
    // `only`: the tables the bulk work wrote (an import leaves the other two thirds of them as they were).
    const { rows } = await db.raw('select tablename from pg_tables where schemaname = current_schema() order by tablename');
    const present = new Set<string>(rows.map((r: { tablename: string }) => r.tablename));
    const tables: StatisticsOf[] = only ? only.filter((entry) => present.has(tableOf(entry))) : [...present];
    if (tables.length === 0) return;
    // VACUUM also marks the freshly written pages all-visible, so counts and keyset pages read an
    // index alone instead of visiting every page of a freshly loaded table; it cannot run inside a
    // transaction (a migration's), where ANALYZE alone does.
    const command = vacuum && !(db as Knex.Transaction).isTransaction ? 'VACUUM (ANALYZE)' : 'ANALYZE';
    const sql = tables.map((entry) => (columnsOf(entry).length ? `?? (${columnsOf(entry).map(() => '??').join(', ')})` : '??')).join(', ');
    await db.raw(`${command} ${sql}`, tables.flatMap((entry) => [tableOf(entry), ...columnsOf(entry)]));
    return;
  }
  // 0x10002: analyze every table that needs it, including ones this connection has not read yet.
  await db.raw('PRAGMA analysis_limit = 1000');
  await db.raw('PRAGMA optimize = 0x10002');
}
