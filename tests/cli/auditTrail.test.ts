// Issue 15, 21 CFR 11.10(e): no labctl command changes or deletes an audit entry. Every command the
// program registers is run here through its writing paths on a database with a history, and every
// earlier entry must read the same afterwards; the commands that replace or drop the database
// (restore, migrate rollback) must leave every entry in the copy they keep. A scan of the sources
// backs this up: no statement outside the migrations updates, deletes or truncates audit_log (and the
// database itself refuses it: tests/api/migrations.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../cli/program.js';
import { createDb } from '../../server/db/knex.js';
import { DEMO_PASSWORD } from '../../server/services/demo.js';
import { databaseKind } from '../helpers/testDatabase.js';
import { labctlOnDatabase, openDemoDatabase } from './demoDatabase.js';
import { dataDirsPerTest, labctl } from './labctl.js';

/** An audit_log row as the database answers it. */
type Entry = { id: number; action: string } & Record<string, unknown>;

interface Run {
  args: string[];
  input?: string;
  env?: Record<string, string>;
}

const STAFF = ['--as', 'staff@demo.lab'];

/**
 * Each registered command's runs that write (and a read or two), in order, on the demo database of
 * demoDatabase.ts. A string instead says where the command's writes are proven.
 */
const RUNS = (dir: string, sqlite: boolean): Record<string, Run[] | string> => ({
  serve: 'its writes are the API calls, each made by tests/api/traceability/audit.test.ts; it migrates as `migrate latest` does',
  migrate: [{ args: ['migrate', 'latest'] }, { args: ['migrate', 'status'] }],
  user: [
    { args: ['user', 'add', '--role', 'staff', '--email', 'new.staff@lab.test', '--password-stdin'], input: 'a long enough password\n' },
    { args: ['user', 'list'] },
    { args: ['user', 'reset-password', 'new.staff@lab.test', '--password-stdin'], input: 'another long password\n' },
    { args: ['user', 'disable', 'new.staff@lab.test'] },
  ],
  requests: [
    { args: ['requests', 'list'] },
    { args: ['requests', 'show', '2026-0003'] },
    { args: ['requests', 'approve', '7', ...STAFF] },
    { args: ['requests', 'reject', '8', ...STAFF, '--yes'] },
    { args: ['requests', 'release', '2026-0002', ...STAFF, '--password-stdin'], input: `${DEMO_PASSWORD}\n` },
    { args: ['requests', 'receive', '2026-0004', ...STAFF, '--containers', '1', '--condition', 'acceptable'] },
  ],
  results: [{ args: ['results', 'import', path.resolve('fixtures/results-example.csv'), '--as', 'microbiotester@demo.lab'] }],
  seed: [{ args: ['seed', '--volume', '3'] }],
  report: [{ args: ['report', 'monthly', '--year', '2026'] }],
  specs: [{ args: ['specs', 'export', '--out', path.join(dir, 'specs.csv')] }, { args: ['specs', 'import', path.join(dir, 'specs.csv'), '--as', 'staff@demo.lab'] }],
  certificate: [{ args: ['certificate', '2026-0002', '--out', path.join(dir, 'coa.pdf')], env: { PUBLIC_URL: 'https://lab.example.org' } }],
  labels: [{ args: ['labels', '2026-0003', '--out', path.join(dir, 'labels.pdf')] }],
  audit: [{ args: ['audit', '--json'] }],
  mail: [{ args: ['mail', 'status'] }, { args: ['mail', 'retry', '--all-failed'] }],
  doctor: [{ args: ['doctor'] }],
  backup: sqlite ? [{ args: ['backup', '--out', path.join(dir, 'copy.sqlite')] }] : 'backs up SQLite only: below',
  restore: 'replaces a SQLite database wholesale: below, keeping the database it replaced',
});

/** The audit entries of a SQLite file, read through a connection of their own. */
async function entriesOfFile(filename: string): Promise<Entry[]> {
  const db = createDb({ client: 'sqlite3', filename });
  try {
    return await db('audit_log').orderBy('id').select();
  } finally {
    await db.destroy();
  }
}

/** Every .ts/.tsx file under `dir`. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return sources(file);
    return /\.tsx?$/.test(e.name) ? [file] : [];
  });
}

describe(`no labctl command changes or deletes an audit entry (${databaseKind()})`, () => {
  const lab = labctlOnDatabase(openDemoDatabase);
  const entries = (): Promise<Entry[]> => lab.database.db('audit_log').orderBy('id').select();
  /** A history to protect: a receipt and its entry (the demo requests are inserted without any). */
  async function withHistory(): Promise<Entry[]> {
    const res = await lab.run(['requests', 'receive', '2026-0003', ...STAFF, '--containers', '2', '--condition', 'acceptable']);
    expect(res.exitCode, res.stderr).toBe(0);
    const history = await entries();
    expect(history.length).toBeGreaterThan(0);
    return history;
  }

  it('runs every registered command through its writes and finds every earlier entry unchanged', async () => {
    const sqlite = lab.database.kind === 'sqlite';
    const runs = RUNS(lab.dataDir, sqlite);
    const registered = (await buildProgram(['node', 'labctl'])).commands.map((c) => c.name());
    // A new command must say here how it leaves the audit trail alone.
    expect(Object.keys(runs).sort()).toEqual([...registered].sort());

    let seen = await withHistory();
    for (const run of Object.values(runs).flatMap((r) => (typeof r === 'string' ? [] : r))) {
      const res = await lab.run(run.args, { input: run.input, env: run.env });
      expect(res.exitCode, `labctl ${run.args.join(' ')}: ${res.stderr}`).toBe(0);
      const now = await entries();
      expect(now.slice(0, seen.length), `labctl ${run.args.join(' ')}`).toEqual(seen);
      seen = now;
    }
    // The writes did happen, each audited.
    expect(seen.map((e) => e.action)).toEqual(
      expect.arrayContaining(['request.approve', 'request.reject', 'request.release', 'request.receive', 'results.write', 'report.issue']),
    );
  }, 240_000);

  it('refuses a plain rollback that would drop the audit trail unless confirmed', async () => {
    const history = await withHistory();
    // The demo database was migrated in one batch: rolling it back drops audit_log.
    const refused = await lab.run(['migrate', 'rollback']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('takes the audit trail\'s protection away');
    expect(refused.stderr).toContain('pass --yes');
    expect(await entries()).toEqual(history);
  });

  it('has no statement outside the migrations that updates, deletes or truncates audit_log', () => {
    const files = [...sources('server'), ...sources('cli')].filter((f) => !f.startsWith(path.join('server', 'db', 'migrations')));
    const writes: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      // Each statement naming the table, up to its end.
      for (const match of text.matchAll(/audit_log[^;]*;/g)) {
        if (/\.(update|del|delete|truncate|merge)\(|\b(UPDATE|DELETE|TRUNCATE|DROP)\b/.test(match[0])) writes.push(`${file}: ${match[0].slice(0, 80)}`);
      }
    }
    expect(files.length).toBeGreaterThan(50);
    expect(writes).toEqual([]);
  });
});

// Replacing or dropping the database is for SQLite files (PostgreSQL has pg_dump and pg_restore): the
// copy labctl keeps holds every entry.
describe('labctl keeps every audit entry when it replaces or drops a SQLite database', () => {
  const newDir = dataDirsPerTest();
  const sqliteFile = (dataDir: string) => path.join(dataDir, 'lab.sqlite');

  /** Adds to the demo database in `dataDir` a receipt and its entry; answers every entry. */
  async function addHistory(dataDir: string): Promise<Entry[]> {
    const res = await labctl(['requests', 'receive', '2026-0003', ...STAFF, '--containers', '2', '--condition', 'acceptable'], dataDir);
    expect(res.exitCode, res.stderr).toBe(0);
    const history = await entriesOfFile(sqliteFile(dataDir));
    expect(history.length).toBeGreaterThan(0);
    return history;
  }
  const seedDemo = async (dataDir: string) => expect((await labctl(['seed', '--demo'], dataDir)).exitCode).toBe(0);

  it('a confirmed rollback of the last batch backs the database up first', async () => {
    const dataDir = newDir();
    await seedDemo(dataDir);
    const history = await addHistory(dataDir);
    const done = await labctl(['migrate', 'rollback', '--yes'], dataDir);
    expect(done.exitCode, done.stderr).toBe(0);
    expect(done.stderr).toContain('reverted 027_wider_windows, 026_version_marks_per_request, 025_analyses_write_indexes, 024_progress_counts, 023_sample_species, 022_progress_conformity, 021_earlier_versions, 020_turnaround_weeks, 019_specifications, 018_version_triggers, 017_request_search, 016_audit_trail, 015_turnaround_paging, 014_change_versions, 013_request_progress, 012_settings, 011_audit_truncate');
    const [backup] = fs.readdirSync(path.join(dataDir, 'backups'));
    expect(await entriesOfFile(path.join(dataDir, 'backups', backup))).toEqual(history);
    // --json: what was applied, on stdout.
    const again = await labctl(['migrate', 'latest', '--json'], dataDir);
    expect(again.exitCode).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ database: expect.stringContaining('SQLite'), applied: expect.arrayContaining(['011_audit_truncate', '016_audit_trail']) });
    expect(again.stderr).toBe('');
  });

  it('restore keeps the database it replaces, with the entries the backup lacks', async () => {
    const dataDir = newDir();
    const copy = path.join(dataDir, 'copy.sqlite');
    await seedDemo(dataDir);
    expect((await labctl(['backup', '--out', copy], dataDir)).exitCode).toBe(0);
    const history = await addHistory(dataDir);
    const restored = await labctl(['restore', copy, '--yes', '--json'], dataDir);
    expect(restored.exitCode, restored.stderr).toBe(0);
    const { previous } = JSON.parse(restored.stdout) as { previous: string };
    expect(await entriesOfFile(previous)).toEqual(history);
    expect(await entriesOfFile(sqliteFile(dataDir))).not.toEqual(history);
  });
});
