import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseKind } from '../helpers/testDatabase.js';
import { labctlEnv, labctlOnDatabase, openDemoDatabase, statuses } from './demoDatabase.js';
import { labctlProcess } from './labctl.js';

const ELISA_PLATE = path.resolve('fixtures/instruments/elisa-aoz-plate.csv');
const QPCR_RUN = path.resolve('fixtures/instruments/qpcr-species-quantstudio.txt');
const HEADER = 'control_number,sample_position,test_code,value,remark,analysis_date';

/** A template's CSV lines with each row's value, remark and date filled from `fill`. */
const filled = (csv: string, fill: (controlNumber: string, position: string, testCode: string) => string) =>
  csv.trim().split(/\r?\n/).map((line, i) => {
    if (i === 0) return line;
    const [controlNumber, position, testCode] = line.split(',');
    return [controlNumber, position, testCode, fill(controlNumber, position, testCode)].join(',');
  }).join('\n');

/** A QuantStudio results export (the shipped fixture's preamble and columns) with a row per template row. */
function quantStudioRun(templateRows: Array<{ controlNumber: string; samplePosition: number; testCode: string }>, ct: (testCode: string) => string): string {
  const fixture = fs.readFileSync(QPCR_RUN, 'utf8').split('\r\n');
  const headerAt = fixture.findIndex((l) => l.startsWith('Well\tWell Position\t'));
  const columns = fixture[headerAt].split('\t');
  const targets: Record<string, string> = { swine: 'Pork', chicken: 'Chicken', dog: 'Dog', cattle: 'Beef' };
  const rows = templateRows.map((r, i) => {
    const cells: Record<string, string> = {
      Well: String(i + 1), 'Well Position': `A${i + 1}`, Omit: 'false', 'Sample Name': `${r.controlNumber}-${r.samplePosition}`,
      'Target Name': targets[r.testCode], Task: 'UNKNOWN', Reporter: 'FAM', Quencher: 'NFQ-MGB', CT: ct(r.testCode),
    };
    return columns.map((c) => cells[c] ?? '').join('\t');
  });
  const ntc = columns.map((c) => ({ Well: '96', 'Well Position': 'H12', 'Sample Name': 'NTC', 'Target Name': 'Pork', Task: 'NTC', CT: 'Undetermined' } as Record<string, string>)[c] ?? '').join('\t');
  return [...fixture.slice(0, headerAt + 1), ...rows, ntc, ''].join('\r\n');
}

describe(`labctl results template (${databaseKind()})`, () => {
  const lab = labctlOnDatabase(openDemoDatabase);

  it('writes the outstanding analyses of a discipline as the import layout with empty values', async () => {
    const res = await lab.run(['results', 'template', '--discipline', 'microbio']);
    expect(res.stderr).toBe('');
    expect(res.exitCode).toBe(0);
    expect(res.stdout.replace(/\r$/, '').split('\r\n')).toEqual([
      HEADER,
      '2026-0003,1,coliformCount,,,', '2026-0003,1,salmonellaSp,,,', '2026-0003,1,staphylococcusAureus,,,',
      '2026-0003,2,coliformCount,,,', '2026-0003,2,salmonellaSp,,,', '2026-0003,2,staphylococcusAureus,,,',
    ]);
    // 2026-0002 (FOR RELEASE) is finished; --status all lists it with the outstanding ones.
    const all = await lab.run(['results', 'template', '--discipline', 'CHEM', '--status', 'all', '--json']);
    expect(JSON.parse(all.stdout)).toEqual({
      discipline: 'chem', status: 'all', rows: [
        { controlNumber: '2026-0002', samplePosition: 1, testCode: 'betaLactams' },
        { controlNumber: '2026-0002', samplePosition: 1, testCode: 'chloramphenicol' },
        { controlNumber: '2026-0002', samplePosition: 2, testCode: 'betaLactams' },
        { controlNumber: '2026-0002', samplePosition: 2, testCode: 'chloramphenicol' },
        { controlNumber: '2026-0005', samplePosition: 1, testCode: 'tetracyclines' },
        { controlNumber: '2026-0005', samplePosition: 1, testCode: 'nitrofuranAoz' },
      ],
    });
    const finished = await lab.run(['results', 'template', '--discipline', 'chem', '--status', 'finished', '--request', '2026-0005', '--json']);
    expect(JSON.parse(finished.stdout).rows).toEqual([]);
    const request = lab.database.requests.find((r) => r.controlNumber === '2026-0004')!;
    const one = await lab.run(['results', 'template', '--discipline', 'molbio', '--request', String(request.requestId)]);
    expect(one.exitCode).toBe(0);
    expect(one.stdout).toBe(`${HEADER}\r\n2026-0004,1,dog,,,\r\n2026-0004,1,swine,,,\r`);
  });

  it('refuses an unknown discipline, status or request', async () => {
    const discipline = await lab.run(['results', 'template', '--discipline', 'physics']);
    expect(discipline).toMatchObject({ exitCode: 2, stdout: '' });
    expect(discipline.stderr).toContain('Unknown --discipline "physics": use one of chem, microbio, molbio.');
    const status = await lab.run(['results', 'template', '--discipline', 'chem', '--status', 'pending']);
    expect(status.exitCode).toBe(2);
    expect(status.stderr).toContain('use one of outstanding, finished, all');
    const request = await lab.run(['results', 'template', '--discipline', 'chem', '--request', '2026-9999']);
    expect(request.exitCode).toBe(1);
    expect(request.stderr).toContain('No request 2026-9999.');
  });

  it('writes --out only to a new file unless --force', async () => {
    const file = path.join(lab.dataDir, 'today.csv');
    const first = await lab.run(['results', 'template', '--discipline', 'molbio', '--out', file, '--json']);
    expect(JSON.parse(first.stdout)).toEqual({ file, discipline: 'molbio', status: 'outstanding', rows: 2 });
    expect(fs.readFileSync(file, 'utf8')).toBe(`${HEADER}\r\n2026-0004,1,dog,,,\r\n2026-0004,1,swine,,,\r\n`);
    fs.writeFileSync(file, 'keep me');
    const again = await lab.run(['results', 'template', '--discipline', 'microbio', '--out', file]);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain(`${file} already exists: pass --force to overwrite it`);
    expect(fs.readFileSync(file, 'utf8')).toBe('keep me');
    const forced = await lab.run(['results', 'template', '--discipline', 'microbio', '--out', file, '--force']);
    expect(forced.stdout).toBe(`Wrote 6 rows (microbio, outstanding) to ${file}.`);
    expect(fs.readFileSync(file, 'utf8').split('\r\n')).toHaveLength(8);
  });

  it('round trip: the template filled in imports, and the next template is empty', async () => {
    const template = await lab.run(['results', 'template', '--discipline', 'microbio']);
    const csv = filled(template.stdout, (_c, position, test) => `${test} ${position} <10 CFU/g,negative,2026-03-19`);
    const imported = await lab.run(['results', 'import', '-', '--as', 'microbiotester@demo.lab', '--json'], { input: csv });
    expect(JSON.parse(imported.stdout)).toMatchObject({ imported: true, rows: 6, changed: 6, movedToForRelease: ['2026-0003'] });
    const stored = await lab.database.db('analyses as a').join('requests as r', 'r.id', 'a.request_id').where('r.control_number', '2026-0003').select('a.value', 'a.remark');
    expect(stored).toHaveLength(6);
    expect(stored.every((a) => a.remark === 'negative' && a.value.endsWith('<10 CFU/g'))).toBe(true);
    expect((await lab.run(['results', 'template', '--discipline', 'microbio'])).stdout).toBe(`${HEADER}\r`);
  });
});

describe(`labctl results import --profile (${databaseKind()})`, () => {
  const lab = labctlOnDatabase(openDemoDatabase);
  const analysis = (controlNumber: string, testCode: string) =>
    lab.database.db('analyses as a').join('requests as r', 'r.id', 'a.request_id').where({ 'r.control_number': controlNumber, 'a.test_code': testCode })
      .first('a.value', 'a.remark', 'a.analysis_date');

  it('lists the shipped profiles, a custom one in DATA_DIR/profiles, and a broken one with its problem', async () => {
    fs.mkdirSync(path.join(lab.dataDir, 'profiles'));
    const custom = JSON.parse(fs.readFileSync('profiles/elisa-plate-reader.json', 'utf8'));
    fs.writeFileSync(path.join(lab.dataDir, 'profiles', 'lcms.json'), JSON.stringify({ ...custom, name: 'lcms', description: 'LC-MS/MS', cutoff: undefined }));
    fs.writeFileSync(path.join(lab.dataDir, 'profiles', 'broken.json'), JSON.stringify({ name: 'broken', delimiter: ':' }));
    const res = await lab.run(['results', 'profiles']);
    expect(res.exitCode).toBe(0);
    const lines = res.stdout.split('\n');
    expect(lines[0]).toMatch(/^elisa-plate-reader {2}shipped {2}ELISA plate reader/);
    expect(lines[1]).toMatch(/^qpcr-quantstudio {4}shipped {2}Real-time PCR/);
    expect(lines[2]).toMatch(/^\? +custom {3}.*broken\.json is not a valid profile: delimiter: must be/);
    expect(lines[3]).toMatch(/^lcms +custom {3}LC-MS\/MS$/);
    const json = JSON.parse((await lab.run(['results', 'profiles', '--json'])).stdout);
    expect(json.map((p: { name?: string; source: string }) => [p.name, p.source])).toEqual([
      ['elisa-plate-reader', 'shipped'], ['qpcr-quantstudio', 'shipped'], [undefined, 'custom'], ['lcms', 'custom'],
    ]);
    expect(json[1]).toMatchObject({ delimiter: '\t', cutoff: { positiveWhen: '<=', threshold: 35 }, analyte: { column: 'Target Name' } });

    const broken = await lab.run(['results', 'import', ELISA_PLATE, '--profile', 'broken', '--as', 'chemtester@demo.lab']);
    expect(broken.exitCode).toBe(1);
    expect(broken.stderr).toContain('Profile broken');
    const unknown = await lab.run(['results', 'import', ELISA_PLATE, '--profile', 'gen5', '--as', 'chemtester@demo.lab']);
    expect(unknown.stderr).toContain('No import profile is called "gen5"; there are elisa-plate-reader, qpcr-quantstudio, lcms');
  });

  it('imports the ELISA plate: one sample among blanks, standards and controls, audited with the file name and sha256', async () => {
    const res = await lab.run(['results', 'import', ELISA_PLATE, '--profile', 'elisa-plate-reader', '--as', 'chemtester@demo.lab', '--json']);
    expect(res.stderr).toBe('');
    expect(JSON.parse(res.stdout)).toMatchObject({ imported: true, rows: 1, changed: 1, skipped: 94 });
    expect(await analysis('2026-0005', 'nitrofuranAoz')).toEqual({ value: 'OD450 0.417', remark: 'positive', analysis_date: '2026-03-19' });
    const tester = await lab.database.userId('chemtester@demo.lab');
    const audit = await lab.database.db('audit_log').where({ action: 'results.write', actor_user_id: tester }).select('details');
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0].details).source).toEqual({
      file: ELISA_PLATE, sha256: createHash('sha256').update(fs.readFileSync(ELISA_PLATE)).digest('hex'), profile: 'elisa-plate-reader',
    });
  });

  it('dry run: what would be saved, and every row it cannot match with line and column; --partial saves the good rows only', async () => {
    const plate = fs.readFileSync(ELISA_PLATE, 'utf8')
      .replace('A4,,,0.043', 'A4,SPL2,2026-9999-1,0.912')
      .replace('A5,,,0.047', 'A5,SPL3,2026-0005-1b,0.5');
    const args = ['results', 'import', '-', '--profile', 'elisa-plate-reader', '--as', 'chemtester@demo.lab'];
    const dry = await lab.run([...args, '--dry-run'], { input: plate });
    expect(dry.exitCode).toBe(1);
    expect(dry.stdout).toBe('');
    expect(dry.stderr.split('\n')).toEqual([
      'These rows are right (--partial would save them):',
      'line 20: 2026-0005 sample 1 nitrofuranAoz = OD450 0.417 (positive) 2026-03-19',
      'These are not:',
      'line 21: no request has control number 2026-9999',
      'line 22: column "Sample ID" (3): sample id "2026-0005-1b" does not match the pattern ^(?<controlNumber>\\d{4}-\\d{4})(?:[-/ ]S?(?<position>\\d+))?$',
      'Error: 2 problems on 2 lines of -; nothing was imported.',
    ]);
    expect(await analysis('2026-0005', 'nitrofuranAoz')).toEqual({ value: null, remark: null, analysis_date: null });

    const partialDry = await lab.run([...args, '--dry-run', '--partial'], { input: plate });
    expect(partialDry.exitCode).toBe(0);
    expect(partialDry.stdout.split('\n')[0]).toBe('line 20: 2026-0005 sample 1 nitrofuranAoz = OD450 0.417 (positive) 2026-03-19');
    expect(await analysis('2026-0005', 'nitrofuranAoz')).toEqual({ value: null, remark: null, analysis_date: null });

    const partial = await lab.run([...args, '--partial', '--json'], { input: plate });
    expect(partial.exitCode).toBe(0);
    const body = JSON.parse(partial.stdout);
    expect(body).toMatchObject({ imported: true, rows: 1, skipped: 92 });
    expect(body.leftOut.map((p: { line: number }) => p.line)).toEqual([21, 22]);
    expect(await analysis('2026-0005', 'nitrofuranAoz')).toMatchObject({ value: 'OD450 0.417', remark: 'positive' });
  });

  it('names the line and the column of a file in the wrong format, and imports nothing', async () => {
    const wrong = await lab.run(['results', 'import', QPCR_RUN, '--profile', 'elisa-plate-reader', '--as', 'molbiotester@demo.lab']);
    expect(wrong.exitCode).toBe(1);
    expect(wrong.stderr).toContain('line 1: no line matches the header pattern "^Well,Well ID," of profile elisa-plate-reader');
    const run = fs.readFileSync(QPCR_RUN, 'utf8').replace('\t23.418\t', '\t23,4x\t');
    const bad = await lab.run(['results', 'import', '-', '--profile', 'qpcr-quantstudio', '--as', 'molbiotester@demo.lab'], { input: run });
    expect(bad.stderr.split('\n')[0]).toBe('line 20: column "CT" (9): "23,4x" is not a number nor one of "Undetermined", "No Ct", "N/A"');
    expect((await statuses(lab.database.db))['2026-0004']).toBe('FOR_TESTING');
  });

  it('imports the QuantStudio run: Ct against the cut-off per target, Undetermined negative', async () => {
    const res = await lab.run(['results', 'import', QPCR_RUN, '--profile', 'qpcr-quantstudio', '--as', 'molbiotester@demo.lab']);
    expect(res.exitCode).toBe(0);
    expect(res.stdout).toBe('Imported 3 rows for 1 request (3 results changed); 1 request is complete (FOR RELEASE).\nMoved to FOR RELEASE: 2026-0004\nSkipped 8 rows of blanks, standards and controls.');
    expect(await analysis('2026-0004', 'swine')).toEqual({ value: 'Ct 23.42', remark: 'positive', analysis_date: null });
    expect(await analysis('2026-0004', 'chicken')).toEqual({ value: 'Ct Undetermined', remark: 'negative', analysis_date: null });
    expect(await analysis('2026-0004', 'dog')).toEqual({ value: 'Ct 37.91', remark: 'negative', analysis_date: null });
  });
});

describe(`labctl as a process: template, instrument file, import with a profile, report --json (${databaseKind()})`, () => {
  const lab = labctlOnDatabase(openDemoDatabase);

  it('round trip through the compiled bin/labctl', async () => {
    const env = labctlEnv(lab.database);
    const report = async () => {
      const res = await labctlProcess(['report', 'monthly', '--discipline', 'molbio', '--json'], lab.dataDir, { env });
      expect(res.exitCode).toBe(0);
      const totals: Record<string, { positive: number; negative: number }> = {};
      for (const [name, months] of Object.entries(JSON.parse(res.stdout) as Record<string, Record<string, { positive: number; negative: number }>>)) {
        const test = name.replace('PosNegCountsByMonthAndYear', '');
        totals[test] = Object.values(months).reduce((t, m) => ({ positive: t.positive + m.positive, negative: t.negative + m.negative }), { positive: 0, negative: 0 });
      }
      return totals;
    };
    const before = await report();
    const template = await labctlProcess(['results', 'template', '--discipline', 'molbio', '--status', 'all', '--request', '2026-0004', '--json'], lab.dataDir, { env });
    expect(template.stderr).toBe('');
    const rows = JSON.parse(template.stdout).rows;
    expect(rows.map((r: { testCode: string }) => r.testCode).sort()).toEqual(['chicken', 'dog', 'swine']);
    const runFile = path.join(lab.dataDir, 'run.txt');
    fs.writeFileSync(runFile, quantStudioRun(rows, (test) => (test === 'dog' ? '21.733' : 'Undetermined')));
    const imported = await labctlProcess(['results', 'import', runFile, '--profile', 'qpcr-quantstudio', '--as', 'molbiotester@demo.lab', '--json'], lab.dataDir, { env });
    expect(imported.stderr).toBe('');
    expect(JSON.parse(imported.stdout)).toMatchObject({ imported: true, rows: 3, skipped: 1, movedToForRelease: ['2026-0004'] });
    // Saved without an analysis date, the results count in this month, which the report shows.
    const after = await report();
    const moved = Object.fromEntries(Object.keys(after).flatMap((test) => {
      const delta = { positive: after[test].positive - before[test].positive, negative: after[test].negative - before[test].negative };
      return delta.positive || delta.negative ? [[test, delta]] : [];
    }));
    // chicken was entered negative already (the demo's partial entry): still one negative this year.
    expect(moved).toEqual({ dog: { positive: 1, negative: 0 }, swine: { positive: 0, negative: 1 } });
  });
});
