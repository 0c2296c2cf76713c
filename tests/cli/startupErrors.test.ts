// `labctl serve` that cannot start says why in one line on stderr and exits 1, promptly, for each
// way its data directory, database or port can be unusable. Real processes of the built bin/labctl.
// The test PostgreSQL trusts every local connection (pg_hba.conf: trust) and cannot refuse a
// password: that case talks to a stand-in that speaks PostgreSQL's protocol as far as refusing one.
// Permission cases run labctl as an unprivileged user (nobody when the tests run as root).
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataDirsPerTest, giveToUnprivileged, labctlProcess, UNPRIVILEGED } from './labctl.js';

const newDir = dataDirsPerTest();
// A guard against a hang, not a timing assertion: a start-up failure must end the process by itself.
const GUARD = { timeout: 20_000 };

async function serve(dataDir: string, env: Record<string, string> = {}, options: typeof UNPRIVILEGED = {}) {
  const res = await labctlProcess(['serve', '--port', '0', '--host', '127.0.0.1'], dataDir, { ...GUARD, ...options, env: { LOG_LEVEL: 'info', ...env } });
  return { ...res, lines: res.stderr.trim().split('\n') };
}

/**
 * A server that answers a connection as PostgreSQL with password authentication does when the
 * password is wrong: it asks for the password (AuthenticationCleartextPassword), then refuses it
 * with FATAL 28P01, whatever was sent.
 */
async function refusingPasswords(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    let buffered = Buffer.alloc(0);
    let asked = false;
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      // StartupMessage: Int32 length (itself included), then its contents.
      if (!asked && buffered.length >= 4 && buffered.length >= buffered.readInt32BE(0)) {
        buffered = buffered.subarray(buffered.readInt32BE(0));
        asked = true;
        socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]));
      }
      // PasswordMessage: 'p', Int32 length, the password.
      if (asked && buffered.length >= 5 && buffered.length >= 1 + buffered.readInt32BE(1)) {
        const fields = Buffer.from('SFATAL\0VFATAL\0C28P01\0Mpassword authentication failed for user "lab"\0\0');
        const header = Buffer.alloc(5);
        header.write('E');
        header.writeInt32BE(4 + fields.length, 1);
        socket.end(Buffer.concat([header, fields]));
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
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
    fs.chmodSync(parent, 0o555); // readable by all, writable by nobody but root
    const dataDir = path.join(parent, 'data');
    const res = await serve(dataDir, {}, UNPRIVILEGED);
    expect(res.exitCode).toBe(1);
    expect(res.lines).toEqual([`Error: Cannot create ${dataDir}: permission denied in ${parent}. Create the data directory for the user running labctl (sudo install -d -m 700 -o "$(id -un)" ${dataDir}) or set DATA_DIR to one it can write.`]);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('names the data directory it may not write in (EACCES), on PostgreSQL too', async () => {
    const dataDir = newDir();
    fs.chmodSync(dataDir, 0o500);
    giveToUnprivileged(dataDir);
    for (const env of [{}, { DATABASE_URL: PG }] as Record<string, string>[]) {
      const res = await serve(dataDir, env, UNPRIVILEGED);
      expect(res.exitCode).toBe(1);
      expect(res.lines).toEqual([`Error: Cannot write in ${dataDir}: permission denied. Give the data directory to the user running labctl (sudo chown "$(id -un)" ${dataDir}; chmod 700 ${dataDir}) or set DATA_DIR to one it can write.`]);
    }
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('creates no missing parent of DATA_DIR (a mistyped path): names the parent, on PostgreSQL too', async () => {
    const dir = newDir();
    const dataDir = path.join(dir, 'mistyped', 'data');
    for (const env of [{}, { DATABASE_URL: PG }] as Record<string, string>[]) {
      const res = await serve(dataDir, env);
      expect(res.exitCode).toBe(1);
      expect(res.lines).toEqual([`Error: Cannot create ${dataDir}: ${path.join(dir, 'mistyped')} does not exist. Fix DATA_DIR, or create the data directory first (sudo install -d -m 700 -o "$(id -un)" ${dataDir}).`]);
    }
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('names a file system that refuses the directory even to root (/proc), instead of hanging', async () => {
    const res = await serve('/proc/lab-data');
    expect(res.exitCode).toBe(1);
    expect(res.lines).toEqual(['Error: Cannot create /proc/lab-data: /proc does not allow new directories. Set DATA_DIR to a directory on a writable file system.']);
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

  it('names the PostgreSQL host and port that take the connection and never answer', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket.on('error', () => undefined))).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as net.AddressInfo;
    try {
      const res = await serve(newDir(), { DATABASE_URL: `postgres://lab@127.0.0.1:${port}/lab` });
      expect(res.exitCode).toBe(1);
      expect(res.lines).toEqual([`Error: PostgreSQL at 127.0.0.1:${port} did not answer: check the host and port in DATABASE_URL, and that nothing blocks the connection.`]);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('names the PostgreSQL host and the user whose password it refused', async () => {
    const refusing = await refusingPasswords();
    try {
      const res = await serve(newDir(), { DATABASE_URL: `postgres://lab:wrong-password@127.0.0.1:${refusing.port}/lab` });
      expect(res.exitCode).toBe(1);
      expect(res.lines).toEqual([`Error: PostgreSQL at 127.0.0.1:${refusing.port} refused the password of user "lab": fix the password in DATABASE_URL.`]);
      expect(res.stderr).not.toContain('wrong-password');
    } finally {
      await refusing.close();
    }
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
