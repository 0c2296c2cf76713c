import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseKind } from '../helpers/testDatabase.js';
import { labctlOnDatabase, openDemoDatabase, statuses } from './demoDatabase.js';

const GOOD = path.resolve('fixtures/results-example.csv');
const WITH_ERRORS = path.resolve('fixtures/results-with-errors.csv');

describe(`labctl results import (${databaseKind()})`, () => {
  const lab = labctlOnDatabase(openDemoDatabase);
  const { run } = lab;
  const resultsOf = (controlNumber: string) =>
    lab.database.db('analyses as a')
      .join('requests as r', 'r.id', 'a.request_id')
      .join('samples as s', 's.id', 'a.sample_id')
      .where('r.control_number', controlNumber)
      .orderBy(['s.position', 'a.test_code'])
      .select('s.position', 'a.test_code', 'a.value', 'a.remark', 'a.analysis_date', 'a.entered_by');
  const auditCount = async () => Number((await lab.database.db('audit_log').count({ n: '*' }))[0].n);

  it('reports every problem of a file with its line number and writes nothing', async () => {
    const before = { statuses: await statuses(lab.database.db), results: await resultsOf('2026-0003'), audit: await auditCount() };
    const res = await run(['results', 'import', WITH_ERRORS, '--as', 'microbiotester@demo.lab']);
    expect(res.exitCode).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr.split('\n')).toEqual([
      'line 2: no request has control number 2026-9999',
      'line 3: request 2026-0003 has no sample 3 (it has 2)',
      'line 4: eColi was not ordered on request 2026-0003',
      'line 5: dog is one of the Molecular Biology Tests, which a microbiotester account may not enter',
      'line 6: remark must be positive, negative or empty (got "maybe")',
      'line 7: analysis_date must be a date written YYYY-MM-DD (got "2026-13-01")',
      'line 8: cattle is one of the Molecular Biology Tests, which a microbiotester account may not enter',
      'line 8: request 2026-0001 is RELEASED: results are accepted only while it is FOR TESTING or FOR RELEASE',
      'line 9: unknown test_code "coliformcount" (did you mean coliformCount?)',
      'line 10: value is empty',
      `Error: 10 problems on 9 lines of ${WITH_ERRORS}; nothing was imported.`,
    ]);
    expect({ statuses: await statuses(lab.database.db), results: await resultsOf('2026-0003'), audit: await auditCount() }).toEqual(before);

    const json = await run(['results', 'import', WITH_ERRORS, '--as', 'microbiotester@demo.lab', '--json']);
    expect(json.exitCode).toBe(1);
    const body = JSON.parse(json.stdout);
    expect(body).toMatchObject({ imported: false, rows: 10 });
    expect(body.problems).toHaveLength(10);
    expect(body.problems[0]).toEqual({ line: 2, message: 'no request has control number 2026-9999' });
  });

  it('imports a good file in one go: results stored, audit written, the complete request moves to FOR RELEASE', async () => {
    const res = await run(['results', 'import', GOOD, '--as', 'microbiotester@demo.lab']);
    expect(res.exitCode).toBe(0);
    expect(res.stdout).toBe('Imported 6 rows for 1 request (6 results changed); 1 request is complete (FOR RELEASE).\nMoved to FOR RELEASE: 2026-0003');

    const tester = await lab.database.userId('microbiotester@demo.lab');
    expect(await resultsOf('2026-0003')).toEqual([
      { position: 1, test_code: 'coliformCount', value: '1.2 x 10^3 CFU/g, within limit', remark: 'negative', analysis_date: '2026-03-18', entered_by: tester },
      { position: 1, test_code: 'salmonellaSp', value: 'Not detected in 25 g', remark: 'negative', analysis_date: '2026-03-19', entered_by: tester },
      { position: 1, test_code: 'staphylococcusAureus', value: '<10 CFU/g', remark: 'negative', analysis_date: '2026-03-18', entered_by: tester },
      { position: 2, test_code: 'coliformCount', value: '4.5 x 10^4 CFU/g', remark: 'negative', analysis_date: '2026-03-18', entered_by: tester },
      { position: 2, test_code: 'salmonellaSp', value: 'Detected in 25 g', remark: 'positive', analysis_date: '2026-03-19', entered_by: tester },
      { position: 2, test_code: 'staphylococcusAureus', value: '<10 CFU/g', remark: 'negative', analysis_date: null, entered_by: tester },
    ]);
    expect((await statuses(lab.database.db))['2026-0003']).toBe('FOR_RELEASE');
    const audit = await lab.database.db('audit_log').where({ action: 'results.write', actor_user_id: tester }).select('details');
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0].details).status).toEqual({ before: 'FOR_TESTING', after: 'FOR_RELEASE' });

    // The same file again changes nothing and says so.
    const again = await run(['results', 'import', GOOD, '--as', 'microbiotester@demo.lab', '--json']);
    expect(JSON.parse(again.stdout)).toEqual({
      imported: true, dryRun: false, rows: 6, requests: 1, changed: 0, requestsComplete: 1, movedToForRelease: [], movedToForTesting: [], warnings: [],
    });
  });

  it('checks and counts without writing on --dry-run', async () => {
    const before = await resultsOf('2026-0003');
    const res = await run(['results', 'import', GOOD, '--as', 'microbiotester@demo.lab', '--dry-run']);
    expect(res.exitCode).toBe(0);
    expect(res.stdout).toBe('Dry run: 6 rows for 1 request would be imported; afterwards 1 request is complete (FOR RELEASE). Nothing was written.\nWould move to FOR RELEASE: 2026-0003');
    expect(await resultsOf('2026-0003')).toEqual(before);
    expect((await statuses(lab.database.db))['2026-0003']).toBe('FOR_TESTING');
  });

  it('enters only the acting tester\'s discipline, as an active tester account', async () => {
    const chem = await run(['results', 'import', GOOD, '--as', 'chemtester@demo.lab']);
    expect(chem.exitCode).toBe(1);
    expect(chem.stderr).toContain('line 2, 5: coliformCount is one of the Microbiology Tests, which a chemtester account may not enter (2 lines)');
    expect(chem.stderr).toContain('6 problems on 6 lines');

    const staff = await run(['results', 'import', GOOD, '--as', 'staff@demo.lab']);
    expect(staff.exitCode).toBe(1);
    expect(staff.stderr).toContain('staff@demo.lab is a staff account: only tester accounts (chemtester, microbiotester, molbiotester) enter results.');

    const missing = await run(['results', 'import', path.join(lab.dataDir, 'nope.csv'), '--as', 'microbiotester@demo.lab']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('nope.csv: no such file');
    expect((await statuses(lab.database.db))['2026-0003']).toBe('FOR_TESTING');
  });

  it('refuses control characters such as NUL with their line, on either database, and writes nothing', async () => {
    const before = await resultsOf('2026-0004');
    const csv = 'control_number,sample_position,test_code,value,remark,analysis_date\n2026-0004,1,swine,Not\u0000detected,negative,2026-03-19\n2026-\u00000004,1,dog,Not detected,negative,2026-03-19\n';
    const res = await run(['results', 'import', '-', '--as', 'molbiotester@demo.lab'], { input: csv });
    expect(res.exitCode).toBe(1);
    expect(res.stderr.split('\n')).toEqual([
      'line 2: value contains an invalid character (control character U+0000) (got "Not\\u0000detected")',
      'line 3: control_number contains an invalid character (control character U+0000) (got "2026-\\u00000004")',
      'Error: 2 problems on 2 lines of -; nothing was imported.',
    ]);
    expect(await resultsOf('2026-0004')).toEqual(before);
  });

  it('reads standard input with "-"', async () => {
    const csv = 'control_number,sample_position,test_code,value,remark,analysis_date\n2026-0004,1,swine,Not detected,negative,2026-03-19\n2026-0004,1,dog,Not detected,negative,2026-03-19\n';
    const res = await run(['results', 'import', '-', '--as', 'molbiotester@demo.lab', '--json'], { input: csv });
    expect(res.exitCode).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ imported: true, rows: 2, requestsComplete: 1, movedToForRelease: ['2026-0004'] });
  });
});

describe(`labctl results import of files as spreadsheets save them (${databaseKind()})`, () => {
  const lab = labctlOnDatabase(openDemoDatabase);
  const fixture = (name: string) => path.resolve('fixtures/csv', name);
  const importAs = (file: string, ...more: string[]) => lab.run(['results', 'import', file, '--as', 'microbiotester@demo.lab', ...more]);
  const valuesOf = async (controlNumber: string) =>
    (await lab.database.db('analyses as a').join('requests as r', 'r.id', 'a.request_id').where('r.control_number', controlNumber).whereNotNull('a.value').select('a.value'))
      .map((a) => a.value).sort();

  it('names the real problem of a Windows-1252, UTF-16 or Excel file, with its line, and imports nothing', async () => {
    const cases: Array<[string, string]> = [
      ['windows-1252.csv', 'line 2: the file is not UTF-8 text from this line on (Windows-1252 or Latin-1, as Excel\'s plain "CSV" saves it?)'],
      ['utf-16le.csv', 'line 1: the file is UTF-16 text (e.g. Excel\'s "Unicode Text"); labctl reads UTF-8'],
      ['workbook.xlsx', 'line 1: this is an Excel workbook (.xlsx) or another zip file, not a CSV file'],
    ];
    for (const [name, message] of cases) {
      const res = await importAs(fixture(name));
      expect(res.exitCode, name).toBe(1);
      expect(res.stderr).toContain(message);
      expect(res.stderr).toContain('save it from the spreadsheet as "CSV UTF-8 (Comma delimited)"');
    }
    expect((await statuses(lab.database.db))['2026-0003']).toBe('FOR_TESTING');
    expect(await valuesOf('2026-0003')).toEqual([]);
  });

  it.each(['bom.csv', 'semicolon.csv', 'tab.csv', 'reordered.csv', 'empty-rows.csv'])('imports %s like the plain CSV', async (name) => {
    const res = await importAs(fixture(name), '--json');
    expect(res.stderr).toBe('');
    expect(res.exitCode).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ imported: true, rows: 6, requests: 1, changed: 6, movedToForRelease: ['2026-0003'] });
    expect(await valuesOf('2026-0003')).toEqual([
      '1.2 x 10^3 CFU/g, 25 °C', '4.5 x 10^4 CFU/g', '<10 CFU/g', '<10 CFU/g (µ-method)', 'Detected in 25 g', 'Not detected in 25 g',
    ].sort());
  });

  it('names missing and unknown header columns', async () => {
    const csv = 'control_number,sample,test_code,value,remark,analysis_date,notes\n2026-0003,1,coliformCount,x,negative,,\n';
    const res = await lab.run(['results', 'import', '-', '--as', 'microbiotester@demo.lab'], { input: csv });
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain('line 1: the header must name the columns control_number,sample_position,test_code,value,remark,analysis_date (in any order): it lacks sample_position; unknown columns "sample", "notes"');
  });

  it('warns about formula-like values and analysis dates in the future or before submission, and imports', async () => {
    const res = await lab.run(['results', 'import', fixture('warnings.csv'), '--as', 'molbiotester@demo.lab']);
    expect(res.stderr).not.toContain('Error');
    expect(res.exitCode).toBe(0);
    expect(res.stderr.split('\n')).toEqual([
      'warning: line 2: value starts with =: a spreadsheet opening an export of it would take it for a formula',
      'warning: line 3: analysis_date 2099-01-01 is in the future',
      'warning: line 4: analysis_date 2020-01-01 is before request 2026-0004 was submitted (2026-03-15)',
    ]);
    expect(res.stdout).toMatch(/^Imported 3 rows for 1 request/);
  });

  it('groups identical problems and caps what the terminal shows; --json lists them all', async () => {
    const lines = ['control_number,sample_position,test_code,value,remark,analysis_date'];
    for (let i = 0; i < 300; i += 1) lines.push(`2026-0003,${i + 1},zzz,x,negative,`);
    for (let i = 0; i < 30; i += 1) lines.push(`2026-${String(9000 + i)},1,eColi,x,negative,`);
    const csv = `${lines.join('\n')}\n`;
    const res = await lab.run(['results', 'import', '-', '--as', 'microbiotester@demo.lab'], { input: csv });
    expect(res.exitCode).toBe(1);
    const shown = res.stderr.split('\n');
    expect(shown[0]).toBe('line 2-301: unknown test_code "zzz" (300 lines)');
    expect(shown[1]).toBe('line 302: no request has control number 2026-9000');
    expect(shown).toHaveLength(20 + 2);
    expect(shown[20]).toBe('... and 11 more on other lines (--json lists every one)');
    expect(shown[21]).toBe('Error: 330 problems on 330 lines of -; nothing was imported.');
    const json = await lab.run(['results', 'import', '-', '--as', 'microbiotester@demo.lab', '--json'], { input: csv });
    expect(JSON.parse(json.stdout).problems).toHaveLength(330);
  });
});
