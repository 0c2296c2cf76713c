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
      imported: true, dryRun: false, rows: 6, requests: 1, changed: 0, requestsComplete: 1, movedToForRelease: [], movedToForTesting: [],
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
    expect(chem.stderr).toContain('line 2: coliformCount is one of the Microbiology Tests, which a chemtester account may not enter');
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
    const res = await run(['results', 'import', '-', '--as', 'molbiotester@demo.lab'], { input: csv, stdin: 'pipe' });
    expect(res.exitCode).toBe(1);
    expect(res.stderr.split('\n')).toEqual([
      'line 2: value must not contain control characters such as NUL (\\u0000) (got "Not\\u0000detected")',
      'line 3: control_number must not contain control characters such as NUL (\\u0000) (got "2026-\\u00000004")',
      'Error: 2 problems on 2 lines of -; nothing was imported.',
    ]);
    expect(await resultsOf('2026-0004')).toEqual(before);
  });

  it('reads standard input with "-"', async () => {
    const csv = 'control_number,sample_position,test_code,value,remark,analysis_date\n2026-0004,1,swine,Not detected,negative,2026-03-19\n2026-0004,1,dog,Not detected,negative,2026-03-19\n';
    const res = await run(['results', 'import', '-', '--as', 'molbiotester@demo.lab', '--json'], { input: csv, stdin: 'pipe' });
    expect(res.exitCode).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ imported: true, rows: 2, requestsComplete: 1, movedToForRelease: ['2026-0004'] });
  });
});
