// labctl as an administrator's safety net: no empty database made by a typo, no data dropped without
// asking, one-line failures, and no terminal control sequences from client text.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseKind } from '../helpers/testDatabase.js';
import { labctlOnDatabase, openDemoDatabase } from './demoDatabase.js';
import { dataDirsPerTest, labctl } from './labctl.js';

const newDir = dataDirsPerTest();
/** Whether `text` holds a C0 control other than tab and newline, DEL, or a C1 control. */
const hasControl = (text: string) => [...text].some((c) => {
  const n = c.codePointAt(0)!;
  return (n < 0x20 && n !== 0x09 && n !== 0x0a) || (n >= 0x7f && n <= 0x9f);
});
const PASSWORD = 'a long passphrase';

describe('labctl on a missing database', () => {
  it('refuses every command but serve, migrate and seed, naming the file and DATA_DIR, and creates nothing', async () => {
    const dataDir = path.join(newDir(), 'typo');
    const file = path.join(dataDir, 'lab.sqlite');
    for (const args of [['requests', 'list'], ['backup'], ['user', 'list'], ['report', 'monthly'], ['results', 'import', '-', '--as', 'x@y.example']]) {
      const res = await labctl(args, dataDir);
      expect(res.exitCode, args.join(' ')).toBe(1);
      expect(res.stderr).toBe(`Error: There is no database at ${file}: check DATA_DIR (${dataDir}) or DATABASE_URL, or create one with \`labctl migrate\` or \`labctl seed\`.`);
    }
    expect(fs.existsSync(file)).toBe(false);
    expect((await labctl(['migrate'], dataDir)).exitCode).toBe(0);
    expect((await labctl(['requests', 'list', '--json'], dataDir)).stdout).toBe('[]');
  });
});

describe('labctl migrate rollback --all', () => {
  it('asks first (refusing without a terminal unless --yes) and backs the database up before dropping it', async () => {
    const dataDir = newDir();
    await labctl(['seed', '--demo'], dataDir);
    const refused = await labctl(['migrate', 'rollback', '--all'], dataDir);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('pass --yes to go ahead without asking');
    expect(JSON.parse((await labctl(['migrate', 'status', '--json'], dataDir)).stdout).pending).toEqual([]);

    const done = await labctl(['migrate', 'rollback', '--all', '--yes'], dataDir);
    expect(done.exitCode).toBe(0);
    const [backup] = fs.readdirSync(path.join(dataDir, 'backups'));
    expect(done.stderr).toContain(`to ${path.join(dataDir, 'backups', backup)}`);
    // The copy holds the data the rollback dropped.
    const copy = await labctl(['user', 'list', '--json'], newDir(), { env: { DATABASE_URL: `sqlite://${path.join(dataDir, 'backups', backup)}` } });
    expect(JSON.parse(copy.stdout).map((u: { email: string }) => u.email)).toContain('staff@demo.lab');
  });
});

describe('labctl failures', () => {
  it('says in one line why a backup cannot be written', async () => {
    const dataDir = newDir();
    await labctl(['migrate'], dataDir);
    const res = await labctl(['backup', '--out', '/dev/null/x.sqlite'], dataDir);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toMatch(/^Error: Cannot write the backup to \/dev\/null\/x\.sqlite: E[A-Z]+: [^\n]*$/);
  });

  it('refuses an argument that is not well-formed text as a usage error naming its option, before touching the database', async () => {
    const dataDir = path.join(newDir(), 'untouched');
    const add = ['user', 'add', '--role', 'staff', '--password', PASSWORD];
    expect(await labctl([...add, '--email', 'ring\u0007@lab.example.org'], dataDir)).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'Error: The value of --email contains an invalid character (control character U+0007).',
    });
    const json = await labctl([...add, '--email=x\ud800@lab.example.org', '--json'], dataDir);
    expect([json.exitCode, JSON.parse(json.stderr)]).toEqual([2, { error: { message: 'The value of --email contains an invalid character (lone surrogate U+D800).', code: 'usage' } }]);
    const positional = await labctl(['requests', 'show', '2026-\ufffd0001'], dataDir);
    expect([positional.exitCode, positional.stderr]).toEqual([2, 'Error: Argument 3 (after labctl) contains an invalid character (U+FFFD, the replacement character of bytes that are not UTF-8).']);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('prints its version', async () => {
    const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };
    const res = await labctl(['--version'], newDir());
    expect(res).toEqual({ exitCode: 0, stdout: pkg.version, stderr: '' });
  });
});

describe('labctl passwords', () => {
  it('reads them from standard input with --password-stdin and refuses to ask without a terminal', async () => {
    const dataDir = newDir();
    await labctl(['migrate'], dataDir);
    const noTerminal = await labctl(['user', 'add', '--role', 'staff', '--email', 'rosa@lab.example'], dataDir);
    expect(noTerminal.exitCode).toBe(2);
    expect(noTerminal.stderr).toBe('Error: Password for rosa@lab.example needs a terminal to ask on; pass --password-stdin and give it on standard input instead.');

    const added = await labctl(['user', 'add', '--role', 'staff', '--email', 'rosa@lab.example', '--password-stdin'], dataDir, { input: `${PASSWORD}\n` });
    expect(added.exitCode).toBe(0);
    const login = await labctl(['user', 'reset-password', 'rosa@lab.example', '--password-stdin', '--json'], dataDir, { input: 'another long passphrase' });
    expect(JSON.parse(login.stdout)).toEqual({ email: 'rosa@lab.example', passwordSet: true });

    const short = await labctl(['user', 'reset-password', 'rosa@lab.example', '--password-stdin'], dataDir, { input: 'short' });
    expect(short.exitCode).toBe(2);
    expect(short.stderr).toBe('Error: New password: use at least 8 characters.');
    const empty = await labctl(['user', 'add', '--role', 'staff', '--email', 'maya@lab.example', '--password-stdin'], dataDir, { input: '' });
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain('--password-stdin: standard input is empty');
  });
});

describe(`labctl prints client text without its control characters (${databaseKind()})`, () => {
  const lab = labctlOnDatabase(openDemoDatabase);
  const HOSTILE = 'Meats\u001b]0;owned\u0007\u001b[2J Inc.';

  it('in lists, details and JSON', async () => {
    const { db } = lab.database;
    const request = await db('requests').where('control_number', '2026-0003').first('id');
    await db('requests').where('id', request.id).update({ company_name: HOSTILE });
    await db('samples').where('request_id', request.id).update({ sample_type_description: 'Pork\u009b2J loin' });

    for (const args of [['requests', 'list'], ['requests', 'show', '2026-0003']]) {
      const res = await lab.run(args);
      expect(res.exitCode).toBe(0);
      expect(hasControl(res.stdout)).toBe(false);
      expect(res.stdout).toContain('Meats\\u001b]0;owned\\u0007\\u001b[2J Inc.');
    }
    expect((await lab.run(['requests', 'show', '2026-0003'])).stdout).toContain('Pork\\u009b2J loin');
    const json = await lab.run(['requests', 'show', '2026-0003', '--json']);
    expect(hasControl(json.stdout)).toBe(false);
    expect(JSON.parse(json.stdout).companyName).toBe(HOSTILE);
  });
});
