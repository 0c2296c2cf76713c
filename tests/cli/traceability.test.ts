import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { pdfText } from '../helpers/pdfText.js';
import { databaseKind } from '../helpers/testDatabase.js';
import { labctlOnDatabase, openDemoDatabase } from './demoDatabase.js';

/** Each test spawns labctl a few times; on a busy machine each spawn takes seconds. */
const SLOW = 180_000;

describe(`labctl traceability (${databaseKind()})`, () => {
  const lab = labctlOnDatabase(openDemoDatabase, 'all');
  const run = (...args: string[]) => lab.run(args);

  it('requests receive records the arrival, flags a warm one, and refuses bad flags (exit 2) and a second receipt (exit 1)', async () => {
    const res = await run('requests', 'receive', '2026-0003', '--as', 'staff@demo.lab', '--containers', '2', '--condition', 'not-acceptable', '--reason', 'Bag leaking', '--temperature', '12.5', '--at', '2026-03-20T08:00:00Z');
    expect(res.stderr).toContain('Warning: this receipt is flagged');
    expect(res.exitCode).toBe(0);
    expect(res.stdout.trim()).toBe('Samples of 2026-0003 received: 2 containers, Not acceptable (Bag leaking), 12.5 °C (above 10 °C).');
    const row = await lab.database.db('sample_receipts').first();
    expect(row).toMatchObject({ containers: 2, condition: 'not-acceptable', reason: 'Bag leaking', received_at: '2026-03-20T08:00:00.000Z' });

    const again = await run('requests', 'receive', '2026-0003', '--as', 'staff@demo.lab', '--containers', '1', '--condition', 'acceptable');
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('have already been received');

    const bad = await run('requests', 'receive', '2026-0004', '--as', 'staff@demo.lab', '--containers', '0', '--condition', 'not-acceptable', '--temperature', 'warm');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--containers must be at least 1');
    expect(bad.stderr).toContain('--temperature must be a number');
    const noReason = await run('requests', 'receive', '2026-0004', '--as', 'staff@demo.lab', '--containers', '1', '--condition', 'not-acceptable');
    expect(noReason.exitCode).toBe(2);
    expect(noReason.stderr).toContain('--reason say why the samples are not acceptable');

    const json = await run('requests', 'receive', '2026-0004', '--as', 'staff@demo.lab', '--containers', '1', '--condition', 'acceptable', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ containers: 1, condition: 'acceptable', flagged: false });
  }, SLOW);

  it('labels writes the same bytes for the same request, one label per sample with its text', async () => {
    const first = path.join(lab.dataDir, 'a.pdf');
    const second = path.join(lab.dataDir, 'b.pdf');
    const res = await run('labels', '2026-0003', '--out', first);
    expect(res.exitCode).toBe(0);
    expect(res.stdout.trim()).toBe(first);
    // A reprint a day later gives the same file, byte for byte.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 86_400_000);
      expect((await run('labels', '2026-0003', '--out', second)).exitCode).toBe(0);
    } finally {
      vi.useRealTimers();
    }
    expect(fs.readFileSync(second).equals(fs.readFileSync(first))).toBe(true);
    // An existing file is kept unless --force; --json says what was written.
    const kept = await run('labels', '2026-0003', '--out', first);
    expect(kept.exitCode).toBe(1);
    expect(kept.stderr).toBe(`Error: ${first} already exists: pass --force to overwrite it, or choose another file with --out.`);
    const forced = await run('labels', '2026-0003', '--out', first, '--force', '--json');
    expect(forced.exitCode).toBe(0);
    expect(JSON.parse(forced.stdout)).toEqual({ controlNumber: '2026-0003', file: first, bytes: fs.statSync(first).size });
    expect((await run('labels', '2026-0003', '--out', '-', '--json')).exitCode).toBe(2);
    const samples = await lab.database.db('samples').where('request_id', (await lab.database.db('requests').where('control_number', '2026-0003').first('id')).id).orderBy('position');
    const text = await pdfText(first);
    expect(text.match(/2026-0003/g)).toHaveLength(samples.length);
    for (const s of samples) {
      expect(text).toContain(`Sample ${s.position} of ${samples.length}`);
      expect(text).toContain(s.sample_type_description.slice(0, 20));
    }

    const pending = await run('labels', '7');
    expect(pending.exitCode).toBe(1);
    expect(pending.stderr).toContain('approve the request first');
  }, SLOW);

  it('audit reads the trail with filters as a table, JSON and CSV, and never changes it', async () => {
    const before = await lab.database.db('audit_log').orderBy('id').select();
    const json = await run('audit', '--request', '2026-0003', '--json');
    expect(json.exitCode, json.stderr).toBe(0);
    const entries = JSON.parse(json.stdout);
    expect(entries.map((e: { action: string }) => e.action)).toEqual(['request.receive']);
    expect(entries[0]).toMatchObject({ actorName: expect.any(String), actorRole: 'staff', controlNumber: '2026-0003' });

    const csv = await run('audit', '--user', 'demostaff', '--action', 'request', '--format', 'csv');
    const lines = csv.stdout.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,at,actor,role,action,request_id,control_number,details,ip');
    expect(lines.slice(1).map((l) => l.split(',').slice(4, 7).join(' '))).toEqual([expect.stringMatching(/^request\.receive \d+ 2026-0004$/), expect.stringMatching(/^request\.receive \d+ 2026-0003$/)]);

    const table = await run('audit', '--since', '2026-01-01', '--limit', '5');
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toMatch(/^At\s+Actor\s+Action\s+Request\s+Details/);
    expect(table.stdout).toContain('request.receive');

    const bad = await run('audit', '--since', 'yesterday', '--request', 'x');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--since must be a date such as 2026-03-01');
    expect(bad.stderr).toContain('--request must be a request id or a control number');
    // Reading is all the audit command does; receive added entries and left the earlier ones alone.
    expect((await lab.database.db('audit_log').orderBy('id').select()).slice(0, before.length)).toEqual(before);
  }, SLOW);
});
