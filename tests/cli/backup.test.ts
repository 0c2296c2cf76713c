// Backups are of SQLite databases (PostgreSQL has pg_dump), so these tests use the data directory's
// SQLite file whatever TEST_DATABASE_URL says.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../server/db/knex.js';
import { LABCTL, labctl, removeDir, tempDataDir } from './labctl.js';

const TABLES = ['users', 'clients', 'requests', 'request_tests', 'samples', 'analyses', 'audit_log', 'control_number_counters'];

async function rowCounts(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) counts[table] = Number((await db(table).count({ n: '*' }))[0].n);
  return counts;
}

describe('labctl backup', () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });
  const newDir = () => {
    const dir = tempDataDir();
    cleanup.push(() => removeDir(dir));
    return dir;
  };
  const open = (filename: string) => {
    const db = createDb({ client: 'sqlite3', filename });
    cleanup.push(() => db.destroy());
    return db;
  };

  it('copies the database consistently while the server runs and a write is in progress', async () => {
    const dataDir = newDir();
    expect((await labctl(['seed', '--demo'], dataDir)).exitCode).toBe(0);
    const server = execa('node', [LABCTL, 'serve', '--port', '0'], { env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, reject: false });
    cleanup.push(async () => {
      server.kill('SIGINT');
      await server;
    });
    const url = await new Promise<string>((resolve) => {
      let text = '';
      server.stdout!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const m = text.match(/Listening on (http:\/\/\S+)/);
        if (m) resolve(m[1]);
      });
    });
    expect((await fetch(`${url}/healthz`)).ok).toBe(true);

    const live = open(path.join(dataDir, 'lab.sqlite'));
    const committed = await rowCounts(live);
    // A write that has not committed yet must neither block the backup nor appear in it.
    const trx = await live.transaction();
    await trx('audit_log').insert({ at: new Date().toISOString(), action: 'test.uncommitted' });
    const res = await labctl(['backup'], dataDir);
    await trx.commit();

    expect(res.exitCode).toBe(0);
    const file = res.stdout;
    expect(file).toMatch(new RegExp(`^${dataDir}/backups/lab-\\d{8}-\\d{6}\\.sqlite$`));
    expect(res.stderr).toContain(`Backed up SQLite ${dataDir}/lab.sqlite to ${file}`);

    const copy = open(file);
    expect((await copy.raw('PRAGMA integrity_check'))[0]).toEqual({ integrity_check: 'ok' });
    expect(await rowCounts(copy)).toEqual(committed);
    expect(await copy('audit_log').where('action', 'test.uncommitted').first()).toBeUndefined();

    // labctl reads the copy like the original.
    const fromCopy = await labctl(['requests', 'list', '--json'], newDir(), { env: { DATABASE_URL: `sqlite://${file}` } });
    const fromLive = await labctl(['requests', 'list', '--json'], dataDir);
    expect(JSON.parse(fromCopy.stdout)).toEqual(JSON.parse(fromLive.stdout));
  });

  it('writes to --out and never overwrites a file', async () => {
    const dataDir = newDir();
    await labctl(['seed', '--demo'], dataDir);
    const out = path.join(dataDir, 'copies', 'before-upgrade.sqlite');
    const res = await labctl(['backup', '--out', out, '--json'], dataDir);
    expect(res.exitCode).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ file: out, bytes: fs.statSync(out).size });

    const again = await labctl(['backup', '--out', out], dataDir);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain(`${out} already exists; choose another file with --out (backups never overwrite).`);
  });

  it('points PostgreSQL users to pg_dump', async () => {
    const res = await labctl(['backup'], newDir(), { env: { DATABASE_URL: 'postgres://lab:secret@db.example:5432/lab' } });
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain('labctl backup copies SQLite databases; PostgreSQL db.example:5432/lab is backed up with pg_dump, e.g.');
    expect(res.stderr).toContain('pg_dump --format=custom');
    expect(res.stderr).not.toContain('secret');
  });
});
