// The planner's statistics after bulk work (seed, results import, restore, a migration's backfill).
// PostgreSQL plans from statistics that only ANALYZE (or autovacuum, which a freshly loaded or
// autovacuum-less server does not run in time) gathers: without them it guesses a few rows per
// table and picks nested loops over tens of thousands. SQLite's PRAGMA optimize analyzes the tables
// whose size changed enough to matter, with a bounded sample so it stays quick on any size.
import type { Knex } from 'knex';
import { isPostgres } from './knex.js';

/** Brings the query planner's statistics up to date; call after writing many rows. */
export async function refreshStatistics(db: Knex | Knex.Transaction): Promise<void> {
  if (isPostgres(db as Knex)) {
    await db.raw('ANALYZE');
    return;
  }
  // 0x10002: analyze every table that needs it, including ones this connection has not read yet.
  await db.raw('PRAGMA analysis_limit = 1000');
  await db.raw('PRAGMA optimize = 0x10002');
}
