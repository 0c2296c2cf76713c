// `labctl serve` that cannot start says why in one line on stderr and exits 1, promptly, for each
// way its data directory, database or port can be unusable. Real processes of the built bin/labctl.
// PostgreSQL here trusts every local connection (pg_hba.conf: trust), so a wrong password cannot be
// refused; an unknown role and an unknown database are what the server can refuse, and are tested.
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataDirsPerTest, labctlProcess } from './labctl.js';

const newDir = dataDirsPerTest();
const NOBODY = 65534;
// A guard against a hang, not a timing assertion: a start-up failure must end the process by itself.
const GUARD = { timeout: 20_000 };

async function serve(dataDir: string, env: Record<string, string> = {}, options: { uid?: number; gid?: number } = {}) {
  const res = await labctlProcess(['serve', '--port', '0', '--host', '127.0.0.1'], dataDir, { ...GUARD, ...options, env: { LOG_LEVEL: 'info', ...env } });
  return { ...res, lines: res.stderr.trim().split('\n') };
}

const PG = (process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test').replace(/\?.*$/, '');
const withUrl = (change: (url: URL) => void) => {
  const url = new URL(PG);
  change(url);
  return url.toString();
};

describe('labctl serve that cannot start', () => {
  it('names the directory it may not create (EACCES, run as an unprivileged user) and says what to do', async () => {
    const parent = newDir();
    fs.chmodSync(parent, 0o755); // root's, readable by all, writable by root only
    const dataDir = path.join(parent, 'data');
    const res = await serve(dataDir, {}, { uid: NOBODY, gid: NOBODY });
    expect(res.exitCode).toBe(1);
    expect(res.lines).toEqual([`Error: Cannot create ${dataDir}: permission denied in ${parent}. Create the data directory for the user running labctl (sudo install -d -m 700 -o "$(id -un)" ${dataDir}) or set DATA_DIR to one it can write.`]);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('names the file that stands where a directory should be (as a parent, or as DATA_DIR itself)', async () => {
    const dir = newDir();
    const file = path.join(dir, 'not-a-dir');
    fs.writeFileSync(file, 'x');
    for (const dataDir of [path.join(file, 'data'), file]) {
      const res = await serve(dataDir);
      expect(res.exitCode).toBe(1);
      expect(res.lines).toEqual([`Error: Cannot use ${dataDir} as the data directory: ${file} is a file, not a directory. Set DATA_DIR to a directory (or move the file away).`]);
    }
  });

  it('names the PostgreSQL host and port that refuse connections', async () => {
    const closed = net.createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as net.AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const res = await serve(newDir(), { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/test` });
    expect(res.exitCode).toBe(1);
    expect(res.lines).toEqual([`Error: PostgreSQL at 127.0.0.1:${port} refused the connection: start PostgreSQL there, or fix the host and port in DATABASE_URL.`]);
  });

  it('names the role PostgreSQL does not know', async () => {
    const url = withUrl((u) => (u.username = 'no_such_role'));
    const res = await serve(newDir(), { DATABASE_URL: url });
    expect(res.exitCode).toBe(1);
    expect(res.lines).toHaveLength(1);
    expect(res.lines[0]).toMatch(/^Error: PostgreSQL at \S+:\d+ refused user "no_such_role" \(.*no_such_role.*\): create the role or fix the user in DATABASE_URL\.$/);
  });

  it('names the database that does not exist', async () => {
    const url = withUrl((u) => (u.pathname = '/no_such_database'));
    const res = await serve(newDir(), { DATABASE_URL: url });
    expect(res.exitCode).toBe(1);
    expect(res.lines).toHaveLength(1);
    expect(res.lines[0]).toMatch(/^Error: PostgreSQL at \S+:\d+ has no database "no_such_database": create it \(createdb -h \S+ no_such_database\) or fix the name in DATABASE_URL\.$/);
  });

  it('names the port in use', async () => {
    const blocker = net.createServer().listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const { port } = blocker.address() as net.AddressInfo;
    try {
      const res = await labctlProcess(['serve', '--port', String(port), '--host', '127.0.0.1'], newDir(), { ...GUARD, env: { LOG_LEVEL: 'info' } });
      expect(res.exitCode).toBe(1);
      expect(res.stderr.trim().split('\n')).toEqual([`Error: Port ${port} on 127.0.0.1 is already in use; stop the other server or choose another with --port (or PORT).`]);
    } finally {
      blocker.close();
    }
  });
});
