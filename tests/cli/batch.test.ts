// Batch verbs (issue 27): `labctl requests approve A B C` and --from-file do each request on its own,
// report each (done, or why not), go on after a refusal and exit 1 when any was not done. Work that
// takes a while shows progress on stderr: plain lines when stderr is not a terminal.
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runWithIo } from '../../cli/io.js';
import { startProgress } from '../../cli/terminal.js';
import { databaseKind } from '../helpers/testDatabase.js';
import { labctlEnv, labctlOnDatabase, openDemoDatabase, statuses } from './demoDatabase.js';
import { labctlProcess } from './labctl.js';

describe(`labctl requests approve with several requests (${databaseKind()})`, () => {
  const lab = labctlOnDatabase(openDemoDatabase);

  it('approves each request it can, says why not for the others, and exits 1', async () => {
    const res = await lab.run(['requests', 'approve', '7', '2026-0003', '8', 'tomorrow', '--as', 'staff@demo.lab']);
    expect(res.exitCode).toBe(1);
    const lines = res.stdout.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^7: Request 7 approved\. Control Number: 2026-\d{4}$/);
    expect(lines[1]).toBe('2026-0003: not approved: Cannot approve a request that is FOR TESTING; only a request that is PENDING REVIEW can be.');
    expect(lines[2]).toMatch(/^8: Request 8 approved\. Control Number: 2026-\d{4}$/);
    expect(lines[3]).toBe('tomorrow: not approved: "tomorrow" is neither a request id (e.g. 12) nor a control number (e.g. 2026-0012).');
    expect(res.stderr).toBe('Error: 2 of 4 requests not approved.');
    const now = await statuses(lab.database.db);
    expect(Object.values(now).filter((s) => s === 'PENDING_REVIEW')).toEqual([]);
    expect(now['2026-0003']).toBe('FOR_TESTING');
  });

  it('reads --from-file, skipping blank lines and comments, and gives per-request results with --json', async () => {
    const file = path.join(lab.dataDir, 'today.txt');
    fs.writeFileSync(file, '# approved at the desk on Monday\n7\n\n2026-0001\r\n8\n');
    const res = await lab.run(['requests', 'approve', '--from-file', file, '--as', 'staff@demo.lab', '--json']);
    expect(res.exitCode).toBe(1);
    const body = JSON.parse(res.stdout);
    expect(body).toMatchObject({ done: 2, failed: 1 });
    expect(body.results).toEqual([
      { request: '7', ok: true, requestId: 7, requestStatus: 'FOR_TESTING', controlNumber: expect.stringMatching(/^2026-\d{4}$/) },
      { request: '2026-0001', ok: false, error: { code: 'failed', message: expect.stringContaining('Cannot approve a request that is RELEASED') } },
      { request: '8', ok: true, requestId: 8, requestStatus: 'FOR_TESTING', controlNumber: expect.stringMatching(/^2026-\d{4}$/) },
    ]);
    expect(JSON.parse(res.stderr)).toEqual({ error: { message: '1 of 3 requests not approved.', code: 'failed' } });

    const empty = path.join(lab.dataDir, 'empty.txt');
    fs.writeFileSync(empty, '# nothing today\n');
    const none = await lab.run(['requests', 'approve', '--from-file', empty, '--as', 'staff@demo.lab']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('names no request');
    expect((await lab.run(['requests', 'approve', '--as', 'staff@demo.lab'])).exitCode).toBe(2);
  });

  it('exits 0 with a summary when every request was done, and rejects a batch only with --yes', async () => {
    const refused = await lab.run(['requests', 'reject', '7', '8', '--as', 'staff@demo.lab']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('Reject 2 requests (7, 8)?');
    expect((await statuses(lab.database.db))['7']).toBe('PENDING_REVIEW');

    const res = await lab.run(['requests', 'reject', '7', '8', '--as', 'staff@demo.lab', '--reason', 'Samples arrived thawed', '--yes']);
    expect(res.exitCode).toBe(0);
    expect(res.stdout.split('\n')).toEqual(['7: Request rejected successfully!', '8: Request rejected successfully!']);
    expect(res.stderr).toBe('2 requests rejected.');
  });

  it('releases a batch with one signature, read once from standard input', async () => {
    const res = await lab.run(['requests', 'release', '2026-0002', '2026-0003', '--as', 'staff@demo.lab', '--password-stdin'], { input: 'demo-password\n' });
    expect(res.exitCode).toBe(1);
    expect(res.stdout.split('\n')).toEqual([
      '2026-0002: Request released successfully. Certificate 2026-0002-R1 issued.',
      expect.stringMatching(/^2026-0003: not released: Cannot release a request that is FOR TESTING/),
    ]);
    expect((await statuses(lab.database.db))['2026-0002']).toBe('RELEASED');
  });

  it('keeps stdout one JSON document and stderr one JSON error in a real process', async () => {
    const res = await labctlProcess(['requests', 'approve', '7', '2026-0002', '--as', 'staff@demo.lab', '--json'], lab.dataDir, { env: labctlEnv(lab.database) });
    expect(res.exitCode).toBe(1);
    expect(JSON.parse(res.stdout).results.map((r: { ok: boolean }) => r.ok)).toEqual([true, false]);
    expect(JSON.parse(res.stderr)).toEqual({ error: { message: '1 of 2 requests not approved.', code: 'failed' } });
  }, 60_000);
});

describe('progress off a terminal', () => {
  async function progressLines(options: { plainLines?: boolean; json?: boolean }): Promise<string[]> {
    const stderr = new PassThrough();
    const chunks: Buffer[] = [];
    stderr.on('data', (c: Buffer) => chunks.push(c));
    await runWithIo({ stdin: Readable.from([]), stdout: new PassThrough(), stderr, env: {} }, async () => {
      // afterMs 0: every step counts as "after a while", so the lines do not depend on timing.
      const progress = await startProgress('Approving', 3, 'requests', { ...options, afterMs: 0 });
      for (const done of [1, 2, 3]) progress.update(done);
      await progress.finish();
    });
    return Buffer.concat(chunks).toString().split('\n').filter(Boolean);
  }

  it('prints plain lines on stderr when asked to, ending with the last count', async () => {
    const lines = await progressLines({ plainLines: true });
    expect(lines[0]).toMatch(/^Approving: \d \/ 3 requests$/);
    expect(lines.at(-1)).toBe('Approving: 3 / 3 requests');
  });

  it('prints nothing with --json or when plain lines are not asked for', async () => {
    expect(await progressLines({ plainLines: true, json: true })).toEqual([]);
    expect(await progressLines({})).toEqual([]);
  });
});
