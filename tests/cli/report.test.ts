import { describe, expect, it } from 'vitest';
import { monthlyReport } from '../../server/services/reports.js';
import { databaseKind } from '../helpers/testDatabase.js';
import { labctlOnDatabase, openDemoDatabase } from './demoDatabase.js';

describe(`labctl report monthly (${databaseKind()})`, () => {
  const lab = labctlOnDatabase(openDemoDatabase, 'all');
  const run = (...args: string[]) => lab.run(['report', 'monthly', ...args]);

  it('gives the counts of the database pages as JSON, per discipline or all four', async () => {
    const all = await run('--year', '2026', '--format', 'json');
    expect(all.exitCode).toBe(0);
    const body = JSON.parse(all.stdout);
    expect(Object.keys(body)).toEqual(['microbio', 'chem-microbial', 'chem-elisa', 'molbio']);
    expect(body.microbio).toEqual(await monthlyReport(lab.database.db, 'microbio', 2026));
    expect(body['chem-elisa']).toEqual(await monthlyReport(lab.database.db, 'chemElisa', 2026));
    expect(body.molbio.horsePosNegCountsByMonthAndYear['2026-03']).toEqual({ positive: 1, negative: 0 });

    const molbio = JSON.parse((await run('--year', '2026', '--discipline', 'molbio', '--format', 'json')).stdout);
    expect(molbio).toEqual(body.molbio);
    expect(Object.keys(molbio.dogPosNegCountsByMonthAndYear)).toHaveLength(12);
  });

  it('prints a plain table per discipline when not on a terminal', async () => {
    const res = await run('--year', '2026', '--discipline', 'microbio');
    const lines = res.stdout.split('\n');
    expect(lines[0]).toBe('Microbiology 2026 (positive/negative)');
    expect(lines[1]).toMatch(/^Test\s+Jan\s+Feb\s+Mar\s+Apr .* Dec\s+Total$/);
    expect(lines.find((l) => l.startsWith('Standard/Aerobic Plate Count'))?.split(/\s{2,}/)).toEqual([
      'Standard/Aerobic Plate Count', '0/0', '0/0', '0/2', ...Array(9).fill('0/0'), '0/2',
    ]);
    expect(lines.at(-1)?.split(/\s{2,}/)).toEqual(['Total', '0/0', '0/0', '0/4', ...Array(9).fill('0/0'), '0/4']);

    const everything = await run('--year', '2026');
    for (const title of ['Microbiology', 'Chemical Microbial Inhibition', 'Chemical ELISA', 'Molecular Biology']) {
      expect(everything.stdout).toContain(`${title} 2026 (positive/negative)`);
    }
  });

  it('exports one discipline as CSV', async () => {
    const res = await run('--year', '2026', '--discipline', 'chem-microbial', '--format', 'csv');
    const lines = res.stdout.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Month,Beta Lactams Positive,Beta Lactams Negative,Tetracyclines Positive,Tetracyclines Negative,Sulfonamides Positive,Sulfonamides Negative,Aminoglycosides Positive,Aminoglycosides Negative,Macrolides Positive,Macrolides Negative,Quinolones Positive,Quinolones Negative,Total Positive,Total Negative');
    expect(lines).toHaveLength(13);
    expect(lines[3]).toBe('2026-03,0,2,0,0,0,0,0,0,0,0,0,0,0,2');
  });

  it('takes --json as every command does, --format json being its alias', async () => {
    const json = await run('--year', '2026', '--json');
    expect(json.exitCode).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse((await run('--year', '2026', '--format', 'json')).stdout));
    const both = await run('--year', '2026', '--json', '--format', 'csv', '--discipline', 'molbio');
    expect(both.exitCode).toBe(2);
    expect(JSON.parse(both.stderr)).toEqual({ error: { message: '--json and --format csv ask for two different outputs: pass one.', code: 'usage' } });
    // --format json fails as --json does: one JSON error on stderr.
    expect(JSON.parse((await run('--year', '1999', '--format', 'json')).stderr).error.code).toBe('usage');
  });

  it('refuses bad options with exit 2', async () => {
    for (const [args, message] of [
      [['--format', 'csv'], 'A CSV file holds one table: choose it with --discipline'],
      [['--year', '1999'], '--year must be a year from 2000 to 2100 (got "1999").'],
      [['--discipline', 'chemistry'], 'Unknown --discipline "chemistry": use one of microbio, chem-microbial, chem-elisa, molbio.'],
      [['--format', 'pdf'], 'Unknown --format "pdf": use one of table, csv, json.'],
    ] as const) {
      const res = await run(...args);
      expect(res.exitCode).toBe(2);
      expect(res.stderr).toContain(message);
    }
  });
});
