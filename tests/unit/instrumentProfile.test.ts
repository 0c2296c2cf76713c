import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeInstrumentFile, InstrumentProfileSchema, parseInstrumentFile, type InstrumentProfile } from '../../server/domain/instrumentProfile.js';

const shipped = (name: string): InstrumentProfile => InstrumentProfileSchema.parse(JSON.parse(fs.readFileSync(`profiles/${name}.json`, 'utf8')));
const ELISA = shipped('elisa-plate-reader');
const QPCR = shipped('qpcr-quantstudio');
const read = (file: string) => fs.readFileSync(`fixtures/instruments/${file}`);
const parseFile = (profile: InstrumentProfile, bytes: Uint8Array) => {
  const decoded = decodeInstrumentFile(profile, bytes);
  if ('problem' in decoded) throw new Error(decoded.problem.message);
  return parseInstrumentFile(profile, decoded.text);
};

/** A small profile for one behaviour at a time. */
const profile = (more: Record<string, unknown> = {}): InstrumentProfile =>
  InstrumentProfileSchema.parse({
    name: 'test',
    sampleId: { column: 'Sample', pattern: '^(?<controlNumber>\\d{4}-\\d{4})-(?<position>\\d+)$' },
    analyte: { testCode: 'dog' },
    reading: { column: 'Ct', prefix: 'Ct' },
    cutoff: { positiveWhen: '<=', threshold: 35, negativeWords: ['Undetermined'] },
    ...more,
  });

describe('the shipped profiles on their fixture files', () => {
  it('reads the ELISA plate: 96 wells, blanks, standards, controls and empty wells skipped, OD against the cut-off', () => {
    const parsed = parseFile(ELISA, read('elisa-aoz-plate.csv'));
    expect(parsed.problems).toEqual([]);
    expect(parsed.dataRows).toBe(96);
    expect(parsed.skipped).toBe(94);
    expect(parsed.rows).toEqual([
      { line: 20, controlNumber: '2026-0005', samplePosition: 1, testCode: 'nitrofuranAoz', value: 'OD450 0.417', remark: 'positive', analysisDate: '2026-03-19' },
    ]);
  });

  it('reads the QuantStudio export: Ct per well and target, IPC, NTC and positive controls skipped, Undetermined negative', () => {
    const parsed = parseFile(QPCR, read('qpcr-species-quantstudio.txt'));
    expect(parsed.problems).toEqual([]);
    expect(parsed.dataRows).toBe(11);
    expect(parsed.skipped).toBe(8);
    expect(parsed.rows.map(({ line, testCode, value, remark }) => ({ line, testCode, value, remark }))).toEqual([
      { line: 20, testCode: 'swine', value: 'Ct 23.42', remark: 'positive' },
      { line: 21, testCode: 'chicken', value: 'Ct Undetermined', remark: 'negative' },
      { line: 22, testCode: 'dog', value: 'Ct 37.91', remark: 'negative' },
    ]);
    expect(parsed.rows.every((r) => r.controlNumber === '2026-0004' && r.samplePosition === 1 && r.analysisDate === null)).toBe(true);
  });

  it('names the line and the columns a file of another instrument lacks', () => {
    const decoded = decodeInstrumentFile(ELISA, read('qpcr-species-quantstudio.txt'));
    expect(parseInstrumentFile(ELISA, (decoded as { text: string }).text).problems).toEqual([
      { line: 1, message: 'no line matches the header pattern "^Well,Well ID," of profile elisa-plate-reader: is this a file of that instrument?' },
    ]);
    const header = 'Well\tWell Position\tSample Name\tTarget\tCq\n1\tA1\t2026-0004-1\tPork\t22.1\n';
    expect(parseInstrumentFile(QPCR, header).problems).toEqual([
      {
        line: 1,
        message: 'the header lacks columns "Target Name", "CT", "Task" that profile qpcr-quantstudio reads (found "Well", "Well Position", "Sample Name", "Target", "Cq"): is this a file of that instrument?',
      },
    ]);
  });
});

describe('parseInstrumentFile', () => {
  it('names the line and column of every row it cannot use', () => {
    const text = ['Sample,Ct', '2026-0004-1,abc', 'sample 7,22.0', '2026-0004-0,22.0', '2026-0004-1,', '2026-0004-2,30.1', '2026-0004-2,31.5'].join('\n');
    const parsed = parseInstrumentFile(profile(), text);
    expect(parsed.problems).toEqual([
      { line: 2, column: 'Ct', message: 'column "Ct" (2): "abc" is not a number nor one of "Undetermined"' },
      { line: 3, column: 'Sample', message: 'column "Sample" (1): sample id "sample 7" does not match the pattern ^(?<controlNumber>\\d{4}-\\d{4})-(?<position>\\d+)$' },
      { line: 4, column: 'Sample', message: 'column "Sample" (1): sample position "0" is not a whole number from 1' },
      { line: 5, column: 'Ct', message: 'column "Ct" (2): the reading is empty' },
      {
        line: 7, column: 'Sample',
        message: 'column "Sample" (1): sample 2026-0004-2 has a dog reading on line 6 already (set "replicates" to "mean" or "first" to accept replicate wells)',
      },
    ]);
    expect(parsed.rows).toEqual([{ line: 6, controlNumber: '2026-0004', samplePosition: 2, testCode: 'dog', value: 'Ct 30.1', remark: 'positive', analysisDate: null }]);
  });

  it('averages replicate wells, keeps the first, or names those that disagree', () => {
    const text = ['Sample,Ct', '2026-0004-1,34.2', '2026-0004-1,36.1', '2026-0004-2,Undetermined', '2026-0004-2,undetermined', '2026-0004-3,30', '2026-0004-3,Undetermined'].join('\n');
    const mean = parseInstrumentFile(profile({ replicates: 'mean' }), text);
    expect(mean.rows.map(({ line, samplePosition, value, remark }) => ({ line, samplePosition, value, remark }))).toEqual([
      { line: 2, samplePosition: 1, value: 'Ct 35.15', remark: 'negative' },
      { line: 4, samplePosition: 2, value: 'Ct Undetermined', remark: 'negative' },
    ]);
    expect(mean.problems).toEqual([
      { line: 7, column: 'Ct', message: 'column "Ct" (2): the replicates of sample 2026-0004-3 dog disagree: line 6 reads "30", line 7 reads "Undetermined"' },
    ]);
    const first = parseInstrumentFile(profile({ replicates: 'first' }), text);
    expect(first.rows.map((r) => r.value)).toEqual(['Ct 34.2', 'Ct Undetermined', 'Ct 30']);
    expect(first.skipped).toBe(3);
    const noCutoff = parseInstrumentFile(profile({ replicates: 'mean', cutoff: undefined }), 'Sample,Ct\n2026-0004-1,<0.1\n');
    expect(noCutoff.problems).toEqual([{ line: 2, column: 'Ct', message: 'column "Ct" (2): "<0.1" is not a number' }]);
  });

  it('maps targets to test codes, takes test codes as they are and names a target it cannot map', () => {
    const p = profile({ analyte: { column: 'Target', map: { Pork: 'swine' } } });
    const parsed = parseInstrumentFile(p, 'Sample,Target,Ct\n2026-0004-1,pork,20\n2026-0004-1,dog,36\n2026-0004-1,Rabbit,20\n');
    expect(parsed.rows.map((r) => [r.testCode, r.remark])).toEqual([['swine', 'positive'], ['dog', 'negative']]);
    expect(parsed.problems).toEqual([{ line: 4, column: 'Target', message: 'column "Target" (2): target "Rabbit" is neither in the profile\'s analyte map (pork) nor a test code' }]);
  });

  it('compares with each operator at the threshold itself', () => {
    const remarkAt = (positiveWhen: string, reading: string) =>
      parseInstrumentFile(profile({ cutoff: { positiveWhen, threshold: 0.5 } }), `Sample,Ct\n2026-0004-1,${reading}\n`).rows[0].remark;
    expect(['>=', '>', '<=', '<'].map((op) => [remarkAt(op, '0.5'), remarkAt(op, '0.6')])).toEqual([
      ['positive', 'positive'], ['negative', 'positive'], ['positive', 'negative'], ['negative', 'negative'],
    ]);
  });

  it('keeps a value without a cut-off as written, with its unit and no remark', () => {
    const p = profile({ reading: { column: 'Conc', unit: 'µg/kg' }, cutoff: undefined, analyte: { testCode: 'chloramphenicol' } });
    expect(parseInstrumentFile(p, 'Sample,Conc\n2026-0005-1,<0.10\n').rows[0]).toMatchObject({ value: '<0.10 µg/kg', remark: null });
  });

  it('reads decimal commas, semicolons, a fixed header row and dates in the profile format', () => {
    const p = profile({ delimiter: ';', decimalComma: true, headerRow: 3, analysisDate: { column: 'Datum', format: 'DD.MM.YYYY' }, reading: { column: 'Ct', decimals: 1 } });
    const text = 'Run 12;;\nexported;;\nSample;Ct;Datum\n2026-0004-1;36,04;19.03.2026 14:02\n2026-0004-2;12,0;31.02.2026\n';
    const parsed = parseInstrumentFile(p, text);
    expect(parsed.rows).toEqual([{ line: 4, controlNumber: '2026-0004', samplePosition: 1, testCode: 'dog', value: '36.0', remark: 'negative', analysisDate: '2026-03-19' }]);
    expect(parsed.problems).toEqual([{ line: 5, column: 'Datum', message: 'column "Datum" (3): "31.02.2026" is not a date written DD.MM.YYYY' }]);
  });

  it('skips wells, sample id patterns and column values, and rows without a sample id', () => {
    const p = profile({ skip: { wellColumn: 'Well', wells: ['a1'], sampleIdPatterns: ['^std'], values: { Task: ['ntc'] } } });
    const text = 'Well,Sample,Task,Ct\nA1,2026-0004-1,UNKNOWN,20\nA2,STD1,STANDARD,20\nA3,2026-0004-1,NTC,20\nA4,,UNKNOWN,20\nA5,2026-0004-1,UNKNOWN,20\n';
    const parsed = parseInstrumentFile(p, text);
    expect(parsed).toMatchObject({ skipped: 4, dataRows: 5, problems: [] });
    expect(parsed.rows.map((r) => r.line)).toEqual([6]);
  });

  it('stops at endMatch and reads a sample id without a position as sample 1', () => {
    const p = profile({ endMatch: '^\\[', sampleId: { column: 'Sample', pattern: '^(?<controlNumber>\\d{4}-\\d{4})$' } });
    const parsed = parseInstrumentFile(p, 'Sample,Ct\n2026-0004,20\n[Amplification]\nnot,a,sample\n');
    expect(parsed).toMatchObject({ problems: [], dataRows: 1 });
    expect(parsed.rows[0]).toMatchObject({ controlNumber: '2026-0004', samplePosition: 1 });
  });

  it('decodes the profile encoding and names the line where a UTF-8 file is not UTF-8', () => {
    const latin = Uint8Array.from([...Buffer.from('Sample,Ct\n2026-0004-1,20 '), 0xb5, 0x0a]);
    expect(decodeInstrumentFile(profile(), latin)).toEqual({
      problem: { line: 2, message: 'the file is not UTF-8 text from this line on: set "encoding" in profile test (e.g. windows-1252)' },
    });
    expect(decodeInstrumentFile(profile({ encoding: 'windows-1252' }), latin)).toEqual({ text: 'Sample,Ct\n2026-0004-1,20 µ\n' });
    expect(decodeInstrumentFile(profile(), Uint8Array.from([0x50, 0x4b, 0x03, 0x04]))).toHaveProperty('problem.line', 1);
  });
});

describe('InstrumentProfileSchema', () => {
  it('names each wrong field of a profile', () => {
    const result = InstrumentProfileSchema.safeParse({
      name: 'Bad Name',
      delimiter: ':',
      sampleId: { column: 'Sample', pattern: '^(\\d+)$' },
      analyte: { testCode: 'unicorn' },
      reading: { column: 'Ct' },
      cutoff: { positiveWhen: '=>', threshold: 1 },
      extra: true,
    });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((i) => i.path.join('.')).sort();
    expect(paths).toEqual(['', 'analyte.testCode', 'cutoff.positiveWhen', 'delimiter', 'name', 'sampleId.pattern'].sort());
  });

  it('refuses headerRow with headerMatch, wells without wellColumn and a pattern that is no regular expression', () => {
    const base = { name: 'x', sampleId: { column: 'S', pattern: '(?<controlNumber>.+)' }, analyte: { testCode: 'dog' }, reading: { column: 'Ct' } };
    expect(InstrumentProfileSchema.safeParse({ ...base, headerRow: 2, headerMatch: '^S' }).success).toBe(false);
    expect(InstrumentProfileSchema.safeParse({ ...base, skip: { wells: ['A1'] } }).success).toBe(false);
    expect(InstrumentProfileSchema.safeParse({ ...base, endMatch: '([' }).success).toBe(false);
    expect(InstrumentProfileSchema.safeParse(base).success).toBe(true);
  });
});

describe('docs/labctl.md', () => {
  it('shows a custom profile example that is a valid profile', () => {
    const docs = fs.readFileSync('docs/labctl.md', 'utf8');
    const example = /A custom profile[^\n]*\n\n```json\n([\s\S]*?)\n```/.exec(docs);
    expect(example).not.toBeNull();
    const parsed = InstrumentProfileSchema.safeParse(JSON.parse(example![1]));
    expect(parsed.error?.issues).toBeUndefined();
    expect(parsed.data).toMatchObject({ name: 'lcms', analyte: { map: { CAP: 'chloramphenicol' } } });
  });
});
