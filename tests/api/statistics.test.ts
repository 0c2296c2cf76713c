// The planner's statistics are the product's job (TOOLCHAIN.md: PostgreSQL here runs without
// autovacuum, so nothing else gathers them after a bulk load): `labctl seed` and `labctl results
// import` refresh them before they return, on each engine.
import { describe, expect, it } from 'vitest';
import { labctlOnDatabase } from '../cli/demoDatabase.js';
import { createTestDatabase, databaseKind, type TestDatabase } from '../helpers/testDatabase.js';

const TABLES = ['requests', 'analyses', 'request_progress'];

/** Tables the planner has statistics of, with the row count it believes. */
async function analyzedTables(database: TestDatabase): Promise<Record<string, number>> {
  const { db } = database;
  if (databaseKind() === 'postgres') {
    const rows: Array<{ relname: string; reltuples: number }> = (
      await db.raw(
        `select s.relname, c.reltuples from pg_stat_user_tables s join pg_class c on c.oid = s.relid
         where s.schemaname = current_schema() and s.last_analyze is not null`,
      )
    ).rows;
    return Object.fromEntries(rows.filter((r) => TABLES.includes(r.relname)).map((r) => [r.relname, Number(r.reltuples)]));
  }
  // sqlite_stat1's first number of a table's row is its row count.
  const rows: Array<{ tbl: string; stat: string }> = await db.raw('select tbl, stat from sqlite_stat1');
  const counts: Record<string, number> = {};
  for (const r of rows) if (TABLES.includes(r.tbl)) counts[r.tbl] = Math.max(counts[r.tbl] ?? 0, Number(r.stat.split(' ')[0]));
  return counts;
}

describe(`statistics after bulk work (${databaseKind()})`, () => {
  const lab = labctlOnDatabase(createTestDatabase);

  it('labctl seed leaves the planner statistics of the rows it loaded', async () => {
    const res = await lab.run(['seed', '--demo', '--volume', '300', '--json']);
    expect(res.exitCode, res.stderr).toBe(0);
    const tables = await analyzedTables(lab.database);
    for (const table of TABLES) expect(tables[table], table).toBeGreaterThan(0);
    const [{ n }] = await lab.database.db('requests').count({ n: '*' });
    // The planner's idea of the size is the real one, near enough to choose plans by.
    expect(tables.requests).toBeGreaterThan(Number(n) / 2);
    if (databaseKind() === 'postgres') {
      // Vacuumed too: the pages are marked all-visible, so counts can read an index alone.
      const { rows } = await lab.database.db.raw(
        `select relname, relpages, relallvisible from pg_class where relnamespace = current_schema()::regnamespace and relname = any(?)`,
        [TABLES],
      );
      for (const r of rows as Array<{ relname: string; relpages: number; relallvisible: number }>) {
        expect(r.relallvisible, r.relname).toBe(r.relpages);
      }
    }
  });

  it('labctl results import leaves the statistics of the tables it wrote current', async () => {
    expect((await lab.run(['seed', '--demo', '--json'])).exitCode).toBe(0);
    const analyzedAt = async (): Promise<Record<string, string>> => {
      if (databaseKind() !== 'postgres') return {};
      const { rows } = await lab.database.db.raw(
        `select relname, greatest(last_analyze, last_autoanalyze)::text as at from pg_stat_user_tables where schemaname = current_schema()`,
      );
      return Object.fromEntries((rows as Array<{ relname: string; at: string | null }>).map((r) => [r.relname, r.at ?? '']));
    };
    const before = await analyzedAt();
    const res = await lab.run(['results', 'import', 'fixtures/results-example.csv', '--as', 'microbiotester@demo.lab', '--json']);
    expect(res.exitCode, res.stderr).toBe(0);
    const tables = await analyzedTables(lab.database);
    for (const table of TABLES) expect(tables[table], table).toBeGreaterThan(0);
    if (databaseKind() === 'postgres') {
      const after = await analyzedAt();
      for (const table of ['analyses', 'requests', 'request_progress', 'audit_log']) expect(after[table] > (before[table] ?? ''), table).toBe(true);
    }
  });
});
