import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startMailbox } from '../helpers/mailbox.js';
import { dataDirsPerTest, labctl } from './labctl.js';

const newDir = dataDirsPerTest();

describe('labctl doctor', () => {
  it('passes every check on a migrated database with a private data directory and a working mail server', async () => {
    const mailbox = await startMailbox();
    try {
      const dataDir = newDir();
      expect((await labctl(['migrate', 'latest'], dataDir)).exitCode).toBe(0);
      const res = await labctl(['doctor'], dataDir, { env: { SMTP_URL: mailbox.url } });
      expect(res.exitCode).toBe(0);
      const lines = res.stdout.trim().split('\n');
      expect(lines.map((l) => l.split(/\s{2,}/)[1])).toEqual(['configuration', 'data directory', 'database', 'mail outbox', 'mail']);
      expect(lines.every((l) => l.startsWith('ok'))).toBe(true);
    } finally {
      await mailbox.close();
    }
  }, 120_000);

  it('says what is wrong, one line per failed check, and exits 1', async () => {
    const badConfig = await labctl(['doctor'], newDir(), { env: { PORT: 'abc' } });
    expect(badConfig.exitCode).toBe(1);
    expect(badConfig.stdout).toMatch(/^FAIL\s+configuration\s+PORT: /m);

    const dataDir = newDir();
    fs.chmodSync(dataDir, 0o777);
    const res = await labctl(['doctor', '--json'], dataDir, { env: { SMTP_URL: 'smtp://127.0.0.1:9' } });
    expect(res.exitCode).toBe(1);
    const checks = JSON.parse(res.stdout) as { name: string; ok: boolean; detail: string }[];
    const byName = Object.fromEntries(checks.map((c) => [c.name, c]));
    expect(byName['configuration'].ok).toBe(true);
    expect(byName['data directory']).toMatchObject({ ok: false, detail: expect.stringContaining('can be read or written by other users') });
    expect(byName['database']).toMatchObject({ ok: false, detail: expect.stringContaining('Migrations pending: 001_initial') });
    expect(byName['mail']).toMatchObject({ ok: false, detail: expect.stringMatching(/SMTP server refused: .*ECONNREFUSED/) });
    expect(res.stderr).toContain('3 checks failed.');
  }, 120_000);
});
