import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMailbox } from '../helpers/mailbox.js';
import { dataDirsPerTest, giveToUnprivileged, labctl, labctlProcess, UNPRIVILEGED } from './labctl.js';

const newDir = dataDirsPerTest();

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** Every entry under `dir` (and `dir` itself) with its size and modification time. */
function tree(dir: string): string[] {
  const stat = (p: string) => {
    const s = fs.statSync(p);
    return `${path.relative(dir, p) || '.'} ${s.isDirectory() ? 'dir' : s.size} ${s.mtimeMs} ${(s.mode & 0o777).toString(8)}`;
  };
  const walk = (p: string): string[] => [stat(p), ...(fs.statSync(p).isDirectory() ? fs.readdirSync(p).sort().flatMap((n) => walk(path.join(p, n))) : [])];
  return walk(dir);
}

const byName = (checks: Check[]) => Object.fromEntries(checks.map((c) => [c.name, c]));

describe('labctl doctor', () => {
  it('passes every check on a migrated database with a private data directory and a working mail server, changing nothing', async () => {
    const mailbox = await startMailbox();
    try {
      const dataDir = newDir();
      expect((await labctl(['migrate', 'latest'], dataDir)).exitCode).toBe(0);
      const before = tree(dataDir);
      const res = await labctl(['doctor'], dataDir, { env: { SMTP_URL: mailbox.url } });
      expect(res.exitCode).toBe(0);
      const lines = res.stdout.trim().split('\n');
      expect(lines.map((l) => l.split(/\s{2,}/)[1])).toEqual(['configuration', 'data directory', 'database', 'mail outbox', 'mail']);
      expect(lines.every((l) => l.startsWith('ok'))).toBe(true);
      const json = await labctl(['doctor', '--json'], dataDir, { env: { SMTP_URL: mailbox.url } });
      expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, checks: expect.arrayContaining([{ name: 'database', ok: true, detail: expect.stringContaining('migrations current') }]) });
      expect(tree(dataDir)).toEqual(before);
    } finally {
      await mailbox.close();
    }
  }, 120_000);

  it('reports a mistyped DATA_DIR and leaves it absent', async () => {
    const missing = path.join(newDir(), 'dta');
    const res = await labctl(['doctor', '--json'], missing);
    expect(res.exitCode).toBe(1);
    const checks = byName(JSON.parse(res.stdout).checks);
    expect(checks['data directory']).toMatchObject({ ok: false, detail: expect.stringContaining(`${missing} does not exist (nothing was created)`) });
    expect(checks['database']).toMatchObject({ ok: false, detail: expect.stringContaining(`there is no database at ${missing}/lab.sqlite`) });
    expect(fs.existsSync(missing)).toBe(false);
    expect(JSON.parse(res.stderr)).toEqual({ error: { message: '3 checks failed.', code: 'failed' } });
  });

  it('checks a read-only data directory (0500, files 0400) as its owner without writing to it', async () => {
    const dataDir = newDir();
    expect((await labctl(['migrate', 'latest'], dataDir)).exitCode).toBe(0);
    for (const name of fs.readdirSync(dataDir)) fs.chmodSync(path.join(dataDir, name), 0o400);
    fs.chmodSync(dataDir, 0o500);
    giveToUnprivileged(dataDir, ...fs.readdirSync(dataDir).map((n) => path.join(dataDir, n)));
    const before = tree(dataDir);
    // Run as the directory's owner, and not as root, who would be allowed to write anyway.
    const res = await labctlProcess(['doctor', '--json'], dataDir, { ...UNPRIVILEGED, timeout: 30_000 });
    expect(res.exitCode).toBe(1);
    const checks = byName(JSON.parse(res.stdout).checks);
    expect(checks['configuration'].ok).toBe(true);
    expect(checks['data directory']).toMatchObject({ ok: false, detail: expect.stringContaining('is not writable by this user') });
    expect(checks['database']).toMatchObject({ ok: true, detail: expect.stringContaining('migrations current') });
    expect(checks['mail outbox'].ok).toBe(true);
    expect(checks['mail']).toMatchObject({ ok: false, detail: expect.stringContaining('the outbox folder is not writable') });
    expect(tree(dataDir)).toEqual(before);
    fs.chmodSync(dataDir, 0o700); // so that a test run by its owner can remove it
  });

  it('says what is wrong, one line per failed check, and exits 1', async () => {
    const badConfig = await labctl(['doctor'], newDir(), { env: { PORT: 'abc' } });
    expect(badConfig.exitCode).toBe(1);
    expect(badConfig.stdout).toMatch(/^FAIL\s+configuration\s+PORT: /m);

    const dataDir = newDir();
    fs.chmodSync(dataDir, 0o777);
    fs.writeFileSync(path.join(dataDir, 'lab.sqlite'), '');
    const res = await labctl(['doctor', '--json'], dataDir, { env: { SMTP_URL: 'smtp://127.0.0.1:9' } });
    expect(res.exitCode).toBe(1);
    const checks = byName(JSON.parse(res.stdout).checks);
    expect(checks['configuration'].ok).toBe(true);
    expect(checks['data directory']).toMatchObject({ ok: false, detail: expect.stringContaining('can be read or written by other users') });
    expect(checks['database']).toMatchObject({ ok: false, detail: expect.stringContaining('Migrations pending: 001_initial') });
    expect(checks['mail']).toMatchObject({ ok: false, detail: expect.stringMatching(/SMTP server refused: .*ECONNREFUSED/) });
    expect(JSON.parse(res.stderr).error.message).toBe('3 checks failed.');
    expect(fs.statSync(path.join(dataDir, 'lab.sqlite')).size).toBe(0);
  }, 120_000);
});
