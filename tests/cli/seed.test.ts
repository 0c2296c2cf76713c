import { describe, expect, it } from 'vitest';
import { createTestDatabase, databaseKind } from '../helpers/testDatabase.js';
import { labctlOnDatabase } from './demoDatabase.js';

describe(`labctl seed (${databaseKind()})`, () => {
  const lab = labctlOnDatabase(createTestDatabase);
  const run = (...args: string[]) => lab.run(args);

  it('creates the demo accounts and demo requests in every status, once', async () => {
    const res = await run('seed');
    expect(res.exitCode).toBe(0);
    expect(res.stdout).toContain('Demo accounts (password for all: demo-password):');
    for (const role of ['client', 'staff', 'chemtester', 'microbiotester', 'molbiotester']) expect(res.stdout).toMatch(new RegExp(`  ${role}\\s+${role}@demo\\.lab`));
    expect(res.stdout).toContain('Demo requests: 8, one or more in every status.');

    const list = JSON.parse((await run('requests', 'list', '--json')).stdout);
    expect(new Set(list.map((r: any) => r.requestStatus))).toEqual(new Set(['PENDING_REVIEW', 'FOR_TESTING', 'FOR_RELEASE', 'RELEASED', 'REJECTED']));
    // The released request has its certificate, as a release issues one.
    expect(await lab.database.db('reports').select('report_number', 'signer_name', 'signature_meaning')).toEqual([
      { report_number: '2026-0001-R1', signer_name: 'Rosa Reyes', signature_meaning: 'Results reviewed and approved for release' },
    ]);

    const again = await run('seed', '--demo');
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toContain('Demo data skipped: the database already has accounts');
    expect(JSON.parse((await run('requests', 'list', '--json')).stdout)).toHaveLength(8);
  });

  it('generates a large data set over this year and last, with about 5% positives', async () => {
    const res = await run('seed', '--volume', '400', '--json');
    expect(res.exitCode).toBe(0);
    const { volume } = JSON.parse(res.stdout);
    expect(volume).toMatchObject({ requests: 400, samples: expect.any(Number), analyses: expect.any(Number), seconds: expect.any(Number) });
    expect(Object.values(volume.byStatus as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(400);
    expect(volume.byStatus.RELEASED).toBeGreaterThan(volume.byStatus.PENDING_REVIEW);

    const db = lab.database.db;
    expect(Number((await db('requests').count({ n: '*' }))[0].n)).toBe(400);
    expect(Number((await db('samples').count({ n: '*' }))[0].n)).toBe(volume.samples);
    expect(Number((await db('analyses').count({ n: '*' }))[0].n)).toBe(volume.analyses);
    const years = (await db('requests').distinct(db.raw('substr(submission_date, 1, 4) as year'))).map((r: any) => Number(r.year)).sort();
    const now = new Date().getUTCFullYear();
    expect(years[0]).toBe(now - 1);
    expect(years.every((y) => y === now - 1 || y === now)).toBe(true);
    const remarks = Object.fromEntries((await db('analyses').whereNotNull('remark').groupBy('remark').select('remark').count({ n: '*' })).map((r: any) => [r.remark, Number(r.n)]));
    const share = remarks.positive / (remarks.positive + remarks.negative);
    expect(share).toBeGreaterThan(0.02);
    expect(share).toBeLessThan(0.1);
    expect(Number((await db('users').where('role', 'client').count({ n: '*' }))[0].n)).toBe(12);
  });

  it('refuses a bad --volume with exit 2', async () => {
    const res = await run('seed', '--volume', 'lots');
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain('--volume must be a whole number from 1 (got "lots").');
  });
});
