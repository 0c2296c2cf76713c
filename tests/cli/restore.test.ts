// Restores are of SQLite databases (PostgreSQL has pg_restore), so these tests use the data
// directory's SQLite file whatever TEST_DATABASE_URL says.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../server/db/knex.js';
import { LABCTL, dataDirsPerTest, labctl } from './labctl.js';

const newDir = dataDirsPerTest();

async function auditCount(filename: string): Promise<number> {
  const db = createDb({ client: 'sqlite3', filename });
  try {
    return Number((await db('audit_log').count({ n: '*' }))[0].n);
  } finally {
    await db.destroy();
  }
}

describe('labctl restore', () => {
  it('checks the backup, asks, keeps the current database and puts the backup in its place', async () => {
    const dataDir = newDir();
    const live = path.join(dataDir, 'lab.sqlite');
    expect((await labctl(['seed', '--demo'], dataDir)).exitCode).toBe(0);
    const backup = (await labctl(['backup'], dataDir)).stdout.trim();
    const atBackup = await auditCount(live);
    const db = createDb({ client: 'sqlite3', filename: live });
    await db('audit_log').insert({ at: new Date().toISOString(), action: 'test.after-backup' });
    await db.destroy();

    const notAsked = await labctl(['restore', backup], dataDir);
    expect(notAsked.exitCode).toBe(2);
    expect(notAsked.stderr).toContain('--yes');
    expect(await auditCount(live)).toBe(atBackup + 1);

    const restored = await labctl(['restore', backup, '--yes', '--json'], dataDir);
    expect(restored.exitCode).toBe(0);
    const { previous } = JSON.parse(restored.stdout);
    expect(await auditCount(live)).toBe(atBackup);
    expect(await auditCount(previous)).toBe(atBackup + 1);
    expect((await labctl(['requests', 'list', '--json'], dataDir)).exitCode).toBe(0);
  }, 180_000);

  it('refuses files that are no backup of ours, and a database a server is using', async () => {
    const dataDir = newDir();
    const text = path.join(dataDir, 'notes.txt');
    fs.writeFileSync(text, 'not a database');
    const foreign = path.join(dataDir, 'other.sqlite');
    const other = createDb({ client: 'sqlite3', filename: foreign });
    await other.schema.createTable('things', (t) => t.increments('id'));
    await other.destroy();

    const notSqlite = await labctl(['restore', text, '--yes'], dataDir);
    expect(notSqlite.exitCode).toBe(1);
    expect(notSqlite.stderr).toContain('is not a SQLite database');
    const notOurs = await labctl(['restore', foreign, '--yes'], dataDir);
    expect(notOurs.exitCode).toBe(1);
    expect(notOurs.stderr).toContain('is not a database of this laboratory portal');

    const server = execa('node', [LABCTL, 'serve', '--port', '0'], { env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent', SMTP_URL: '' }, reject: false });
    await new Promise<void>((resolve) => {
      let stdout = '';
      server.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('Listening on')) resolve();
      });
    });
    const backup = (await labctl(['backup'], dataDir)).stdout.trim();
    const busy = await labctl(['restore', backup, '--yes'], dataDir);
    server.kill('SIGTERM');
    expect((await server).exitCode).toBe(0);
    expect(busy.exitCode).toBe(1);
    expect(busy.stderr).toMatch(/labctl serve \(process \d+\) is using .*lab\.sqlite; stop it first/);
    expect((await labctl(['restore', backup, '--yes'], dataDir)).exitCode).toBe(0);
  }, 300_000);
});
