// Where `npm run bench` puts its data: a SQLite file in a fresh data directory, or a fresh schema of
// the PostgreSQL database of BENCH_DATABASE_URL (default: the test database, 127.0.0.1:5432 as in CI).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';

const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A data directory of its own, as each instance on its own machine would have. */
export const freshDataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'labctl-bench-'));

/**
 * `engine`'s target: `env` for labctl, `settings` for createDb, `instances` (servers to start: one
 * on SQLite, two on PostgreSQL), and `drop()` (unless BENCH_KEEP is set).
 */
export async function openTarget(engine) {
  const dataDir = freshDataDir();
  const base = { SMTP_URL: '', LOG_LEVEL: 'warn', LOG_FORMAT: 'json' };
  const removeDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  if (engine === 'sqlite') {
    const filename = path.join(dataDir, 'lab.sqlite');
    return {
      engine,
      dataDir,
      env: { ...base, DATA_DIR: dataDir, DATABASE_URL: '' },
      settings: { client: 'sqlite3', filename },
      instances: 1,
      async drop() {
        if (!process.env.BENCH_KEEP) removeDir();
      },
    };
  }
  const schema = `bench_${process.pid}`;
  const admin = knexFactory({ client: 'pg', connection: PG_URL, pool: { min: 0, max: 1 } });
  await admin.raw('create schema ??', [schema]);
  const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    engine,
    dataDir,
    env: { ...base, DATA_DIR: dataDir, DATABASE_URL: url },
    settings: { client: 'pg', connectionString: PG_URL, searchPath: schema },
    instances: 2,
    async drop() {
      if (!process.env.BENCH_KEEP) {
        await admin.raw('drop schema ?? cascade', [schema]);
        removeDir();
      }
      await admin.destroy();
    },
  };
}
