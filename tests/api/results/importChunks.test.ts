// A results import larger than one chunk of the results service (10,000 rows): the chunks are written
// two at a time in one transaction (server/services/results/import.ts), so every row must be stored,
// the outcome must list the requests in the file's order, progress must climb to the whole file, and
// a dry run must leave nothing behind.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareImportBench } from '../../../fixtures/bench.js';
import type { Actor } from '../../../server/domain/policies.js';
import { importResults } from '../../../server/services/results/import.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

// Two chunks: the second is read and checked while the first is written.
const ROWS = 12_000;

describe(`labctl results import of ${ROWS.toLocaleString('en-US')} rows, in several chunks (${databaseKind()})`, () => {
  let app: TestApp;
  let tester: Actor;
  let csv: Buffer;
  let controlNumbers: string[];

  beforeAll(async () => {
    app = await startTestApp();
    await app.createUser('client');
    const t = await app.createUser('microbiotester');
    tester = { id: t.id, role: t.role };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-import-'));
    const csvFile = path.join(dir, 'results.csv');
    await prepareImportBench(app.db, app.clock, { rows: ROWS, csvFile });
    csv = fs.readFileSync(csvFile);
    fs.rmSync(dir, { recursive: true, force: true });
    // Each request's first appearance in the file, in order.
    controlNumbers = [...new Set(csv.toString('utf8').trim().split('\n').slice(1).map((line) => line.split(',')[0]))];
  }, 120_000);
  afterAll(() => app?.close());

  const entered = async () => Number((await app.db('analyses').whereNotNull('value').count({ n: '*' }).first())!.n);
  const deps = () => ({ db: app.db, clock: app.clock });

  it('a dry run counts every row and leaves nothing written', async () => {
    const result = await importResults(deps(), tester, { csv, dryRun: true });
    expect(result.imported && result.outcome).toMatchObject({ dryRun: true, rows: ROWS, requestsComplete: controlNumbers.length });
    expect(await entered()).toBe(0);
    expect(Number((await app.db('requests').where('status', 'FOR_RELEASE').count({ n: '*' }).first())!.n)).toBe(0);
    expect(Number((await app.db('audit_log').where('action', 'results.write').count({ n: '*' }).first())!.n)).toBe(0);
  }, 120_000);

  it('stores every row, moves every request in the order of the file, and reports progress up to the whole file', async () => {
    const progress: number[] = [];
    const result = await importResults(deps(), tester, { csv, onProgress: (rows, total) => progress.push(rows / total) });
    expect(result.imported).toBe(true);
    if (!result.imported) return;
    expect(result.outcome).toMatchObject({ rows: ROWS, changed: ROWS, requests: controlNumbers.length, requestsComplete: controlNumbers.length, movedToForTesting: [] });
    expect(result.outcome.movedToForRelease).toEqual(controlNumbers);
    expect(progress).toHaveLength(2);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(1);
    expect(await entered()).toBe(ROWS);
    expect(Number((await app.db('audit_log').where('action', 'results.write').count({ n: '*' }).first())!.n)).toBe(controlNumbers.length);
  }, 120_000);
});
