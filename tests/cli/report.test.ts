import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { monthlyReport, nonConformityReport } from '../../server/services/reports.js';
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

describe(`labctl report monthly --conformity (${databaseKind()})`, () => {
  const lab = labctlOnDatabase(openDemoDatabase, 'all');
  const run = (...args: string[]) => lab.run(['report', 'monthly', '--year', '2026', '--conformity', ...args]);
  const salmonella = { testCode: 'salmonellaSp', discipline: 'microbio', month: '2026-03', doesNotConform: 1, inconclusive: 0, conforms: 1 };

  it('counts nothing before a result is judged', async () => {
    const res = await run('--json');
    expect(res.exitCode).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ year: 2026, rows: [] });
  });

  it('gives the statements of conformity of the imported results as the API does, as JSON, a table and CSV', async () => {
    // The example file: Salmonella (a qualitative specification, not detected in 25 g) is detected in
    // sample 2 and not in sample 1 of 2026-0003, in March; the other tests have no specification.
    const imported = await lab.run(['results', 'import', path.resolve('fixtures/results-example.csv'), '--as', 'microbiotester@demo.lab']);
    expect(imported.exitCode).toBe(0);

    const json = await run('--json');
    expect(json.exitCode).toBe(0);
    const body = JSON.parse(json.stdout);
    expect(body).toEqual({ year: 2026, rows: [salmonella] });
    const staffId = await lab.database.userId('staff@demo.lab');
    expect(body).toEqual(await nonConformityReport(lab.database.db, { id: staffId, role: 'staff' }, 2026));
    expect(JSON.parse((await run('--discipline', 'microbio', '--format', 'json')).stdout)).toEqual(body);
    expect(JSON.parse((await run('--discipline', 'chem-elisa', '--json')).stdout)).toEqual({ year: 2026, rows: [] });

    const table = await run('--discipline', 'microbio');
    const lines = table.stdout.split('\n');
    expect(lines[0]).toBe('Microbiology 2026 statements of conformity (does not conform/inconclusive/conforms)');
    expect(lines[1]).toMatch(/^Test\s+Jan\s+Feb\s+Mar\s+Apr .* Dec\s+Total$/);
    expect(lines.find((l) => l.startsWith('Salmonella sp.'))?.split(/\s{2,}/)).toEqual(['Salmonella sp.', '0/0/0', '0/0/0', '1/0/1', ...Array(9).fill('0/0/0'), '1/0/1']);
    expect(lines.find((l) => l.startsWith('Coliform count'))?.split(/\s{2,}/)).toEqual(['Coliform count', ...Array(13).fill('0/0/0')]);
    expect(lines.at(-1)?.split(/\s{2,}/)).toEqual(['Total', '0/0/0', '0/0/0', '1/0/1', ...Array(9).fill('0/0/0'), '1/0/1']);
    const everything = await run();
    for (const title of ['Microbiology', 'Chemical Microbial Inhibition', 'Chemical ELISA', 'Molecular Biology']) {
      expect(everything.stdout).toContain(`${title} 2026 statements of conformity (does not conform/inconclusive/conforms)`);
    }

    const csv = (await run('--discipline', 'microbio', '--format', 'csv')).stdout.trimEnd().split('\r\n');
    expect(csv[0].split(',').slice(0, 10)).toEqual([
      'Month',
      'Standard/Aerobic Plate Count Does not conform', 'Standard/Aerobic Plate Count Inconclusive', 'Standard/Aerobic Plate Count Conforms',
      'Coliform count Does not conform', 'Coliform count Inconclusive', 'Coliform count Conforms',
      'Salmonella sp. Does not conform', 'Salmonella sp. Inconclusive', 'Salmonella sp. Conforms',
    ]);
    expect(csv[0].split(',').slice(-3)).toEqual(['Total Does not conform', 'Total Inconclusive', 'Total Conforms']);
    expect(csv).toHaveLength(13);
    expect(csv[3]).toBe(`2026-03,0,0,0,0,0,0,1,0,1,${Array(18).fill(0).join(',')},1,0,1`);
    expect(csv[4]).toBe(`2026-04,${Array(30).fill(0).join(',')}`);
  });

  it('leaves the positive/negative report as it was, and refuses a CSV of every discipline', async () => {
    const plain = JSON.parse((await lab.run(['report', 'monthly', '--year', '2026', '--discipline', 'microbio', '--json'])).stdout);
    expect(plain).toEqual(await monthlyReport(lab.database.db, 'microbio', 2026));
    expect(plain.salmonellaSpPosNegCountsByMonthAndYear['2026-03']).toEqual({ positive: 1, negative: 1 });
    const csv = await run('--format', 'csv');
    expect(csv.exitCode).toBe(2);
    expect(csv.stderr).toContain('A CSV file holds one table: choose it with --discipline');
  });
});
