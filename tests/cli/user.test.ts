import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../server/db/knex.js';
import { verifyPassword } from '../../server/services/secrets.js';
import { startMailbox, type Mailbox } from '../helpers/mailbox.js';
import { dataDirsPerTest, labctl } from './labctl.js';

const PASSWORD = 'a long passphrase';
const newEmptyDir = dataDirsPerTest();
/** A data directory with an empty database file, which user commands migrate (they refuse a missing one). */
const newDir = () => {
  const dir = newEmptyDir();
  fs.writeFileSync(path.join(dir, 'lab.sqlite'), '');
  return dir;
};

/** Reads from the data directory's database straight. */
async function readDatabase<T>(dataDir: string, read: (db: ReturnType<typeof createDb>) => Promise<T>): Promise<T> {
  const db = createDb({ client: 'sqlite3', filename: path.join(dataDir, 'lab.sqlite') });
  try {
    return await read(db);
  } finally {
    await db.destroy();
  }
}

const passwordHashOf = (dataDir: string, email: string): Promise<string> =>
  readDatabase(dataDir, async (db) => (await db('users').where({ email }).first('password_hash')).password_hash);

const outboxRows = (dataDir: string) => readDatabase(dataDir, (db) => db('outbox').select('recipient', 'subject', 'text_body', 'state'));

const listJson = async (dataDir: string) => JSON.parse((await labctl(['user', 'list', '--json'], dataDir)).stdout);

describe('labctl user add', () => {
  it('creates a verified staff account and a client with its company', async () => {
    const dataDir = newDir();
    const staff = await labctl(['user', 'add', '--role', 'staff', '--email', 'Rosa@Lab.Example', '--password', PASSWORD, '--first-name', 'Rosa', '--last-name', 'Reyes'], dataDir);
    expect(staff.exitCode).toBe(0);
    expect(staff.stdout).toBe('Added staff #1 rosa@lab.example');

    const client = await labctl([
      'user', 'add', '--role', 'client', '--email', 'buyer@meats.example', '--password', PASSWORD, '--username', 'meatsbuyer',
      '--company', 'Meats Inc.', '--lto', 'lto-2026-01', '--classification', 'Importer', '--contact', '0917 123 4567', '--json',
    ], dataDir);
    expect(client.exitCode).toBe(0);
    expect(JSON.parse(client.stdout)).toEqual({ id: 2, role: 'client', email: 'buyer@meats.example', username: 'meatsbuyer' });

    expect(await listJson(dataDir)).toEqual([
      expect.objectContaining({ id: 1, role: 'staff', email: 'rosa@lab.example', name: 'Rosa Reyes', status: 'ACTIVE', verified: true, companyName: null }),
      expect.objectContaining({ id: 2, role: 'client', username: 'meatsbuyer', status: 'ACTIVE', verified: true, companyName: 'Meats Inc.' }),
    ]);
    expect(await verifyPassword(PASSWORD, await passwordHashOf(dataDir, 'rosa@lab.example'))).toBe(true);
  });

  it('requires the company details for a client only, listing every missing flag (exit 2)', async () => {
    const dataDir = newDir();
    const res = await labctl(['user', 'add', '--role', 'client', '--email', 'c@x.example', '--password', PASSWORD], dataDir);
    expect(res.exitCode).toBe(2);
    for (const flag of ['--company', '--lto', '--classification', '--contact']) expect(res.stderr).toContain(`${flag}: required for a client`);
    expect((await labctl(['user', 'add', '--role', 'molbiotester', '--email', 'm@x.example', '--password', PASSWORD], dataDir)).exitCode).toBe(0);
  });

  it('names every bad value and exits 2', async () => {
    const res = await labctl(['user', 'add', '--role', 'boss', '--email', 'nope', '--password', 'short', '--username', 'a b'], newDir());
    expect(res.exitCode).toBe(2);
    for (const flag of ['--role', '--email', '--password', '--username']) expect(res.stderr).toContain(`${flag}:`);
    const missing = await labctl(['user', 'add', '--email', 'x@y.example'], newDir());
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/required option '--role <role>'/);
  });

  it('refuses a taken e-mail (exit 1)', async () => {
    const dataDir = newDir();
    const args = ['user', 'add', '--role', 'admin', '--email', 'admin@lab.example', '--password', PASSWORD];
    expect((await labctl(args, dataDir)).exitCode).toBe(0);
    const again = await labctl(args, dataDir);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('An account with this e-mail already exists.');
  });

  it('lists every option with examples in its help', async () => {
    const res = await labctl(['user', 'add', '--help'], newDir());
    expect(res.exitCode).toBe(0);
    for (const flag of ['--role', '--email', '--password', '--username', '--first-name', '--last-name', '--company', '--lto', '--classification', '--contact', '--json']) {
      expect(res.stdout).toContain(flag);
    }
    expect(res.stdout).toContain('Examples:');
    for (const sub of ['list', 'disable', 'reset-password']) {
      const help = await labctl(['user', sub, '--help'], newDir());
      expect(help.stdout).toContain('Examples:');
      expect(help.stdout).toContain('--json');
    }
  });
});

describe('labctl user list', () => {
  it('prints a table, or says there is nobody yet', async () => {
    const dataDir = newDir();
    const empty = await labctl(['user', 'list'], dataDir);
    expect(empty.exitCode).toBe(0);
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toContain('No accounts yet');
    await labctl(['user', 'add', '--role', 'chemtester', '--email', 'carlo@lab.example', '--password', PASSWORD, '--username', 'carlo'], dataDir);
    const table = (await labctl(['user', 'list'], dataDir)).stdout.split('\n');
    expect(table[0]).toMatch(/^ID\s+ROLE\s+EMAIL\s+USERNAME\s+NAME\s+STATUS\s+VERIFIED$/);
    expect(table[1]).toMatch(/^-+\s+-+/);
    expect(table[2]).toMatch(/^1\s+chemtester\s+carlo@lab\.example\s+carlo\s+carlo\s+ACTIVE\s+yes$/);
  });
});

describe('labctl user disable', () => {
  it('disables an account, and fails with exit 1 for an unknown one', async () => {
    const dataDir = newDir();
    await labctl(['user', 'add', '--role', 'staff', '--email', 'rosa@lab.example', '--password', PASSWORD], dataDir);
    const res = await labctl(['user', 'disable', 'rosa@lab.example'], dataDir);
    expect(res.exitCode).toBe(0);
    expect(res.stderr).toContain('Disabled rosa@lab.example');
    expect((await listJson(dataDir))[0].status).toBe('DISABLED');
    expect(JSON.parse((await labctl(['user', 'disable', 'rosa@lab.example', '--json'], dataDir)).stdout)).toEqual({ id: 1, email: 'rosa@lab.example', status: 'DISABLED' });

    const unknown = await labctl(['user', 'disable', 'nobody@lab.example'], dataDir);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('There is no account with the e-mail or username "nobody@lab.example".');
  });
});

describe('labctl user reset-password', () => {
  let mailbox: Mailbox;
  beforeAll(async () => {
    mailbox = await startMailbox();
  });
  afterAll(() => mailbox?.close());

  it('sets a random password and prints it once', async () => {
    const dataDir = newDir();
    await labctl(['user', 'add', '--role', 'staff', '--email', 'rosa@lab.example', '--password', PASSWORD], dataDir);
    const res = await labctl(['user', 'reset-password', 'rosa@lab.example'], dataDir);
    expect(res.exitCode).toBe(0);
    expect(res.stderr).toContain('New password for rosa@lab.example');
    const password = res.stdout.trim();
    expect(password).toMatch(/^[\w-]{16}$/);
    const hash = await passwordHashOf(dataDir, 'rosa@lab.example');
    expect(await verifyPassword(password, hash)).toBe(true);
    expect(await verifyPassword(PASSWORD, hash)).toBe(false);

    const json = JSON.parse((await labctl(['user', 'reset-password', 'rosa@lab.example', '--json'], dataDir)).stdout);
    expect(json).toEqual({ email: 'rosa@lab.example', password: expect.stringMatching(/^[\w-]{16}$/) });
    expect(json.password).not.toBe(password);
  });

  it('queues a reset code mail for the server with --send-code', async () => {
    const dataDir = newDir();
    await labctl(['user', 'add', '--role', 'staff', '--email', 'maya@lab.example', '--password', PASSWORD], dataDir);
    const res = await labctl(['user', 'reset-password', 'maya@lab.example', '--send-code', '--json'], dataDir, { env: { SMTP_URL: mailbox.url } });
    expect(res.exitCode).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ email: 'maya@lab.example', codeSent: true });
    // Queued for the running server, which sends it; the command sent nothing itself.
    const queued = await outboxRows(dataDir);
    expect(queued).toEqual([{ recipient: 'maya@lab.example', subject: expect.stringContaining('Your password reset code'), text_body: expect.stringMatching(/\b\d{6}\b/), state: 'pending' }]);
    expect(mailbox.messages).toEqual([]);
    expect(await verifyPassword(PASSWORD, await passwordHashOf(dataDir, 'maya@lab.example'))).toBe(true);
  });

  it('fails with exit 1 for an unknown account', async () => {
    const res = await labctl(['user', 'reset-password', 'nobody@lab.example', '--send-code'], newDir());
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain('Error: This e-mail is not in the system.');
  });
});
