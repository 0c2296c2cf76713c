import type { Db } from './knex.js';
import { migrationSource } from './migrations/index.js';

const options = { migrationSource };

/**
 * Applies pending migrations. When the database is exactly this release's it only reads, so the
 * portal's own role (which may not write knex's tables) can run it; anything else, a migration
 * unknown to this release included (which knex refuses), goes to knex.
 */
export async function migrateLatest(db: Db): Promise<string[]> {
  if (await db.schema.hasTable('knex_migrations')) {
    const [{ applied, pending }, known] = await Promise.all([migrationStatus(db), migrationSource.getMigrations([])]);
    if (!pending.length && applied.every((name) => known.includes(name))) return [];
  }
  const [, applied] = await db.migrate.latest(options);
  return applied as string[];
}

/** Rolls back the last batch, or every migration with `all`. */
export async function migrateRollback(db: Db, all = false): Promise<string[]> {
  const [, reverted] = await db.migrate.rollback(options, all);
  return reverted as string[];
}

/** The migrations a plain rollback would revert: those of the last batch. */
export async function lastBatch(db: Db): Promise<string[]> {
  if (!(await db.schema.hasTable('knex_migrations'))) return [];
  return db('knex_migrations').where('batch', db('knex_migrations').max('batch')).orderBy('id', 'desc').pluck('name');
}

export async function migrationStatus(db: Db): Promise<{ applied: string[]; pending: string[] }> {
  const [completed, pending] = (await db.migrate.list(options)) as [{ name: string }[], string[]];
  return { applied: completed.map((m) => m.name), pending: pending.map(String) };
}
