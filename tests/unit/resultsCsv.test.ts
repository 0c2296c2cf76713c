import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import {
  RESULTS_CSV_HEADER,
  decodeResultsCsv,
  parseResultsCsv,
  resolveResultRows,
  sortProblems,
  splitUnquoted,
  type ImportTarget,
} from '../../server/domain/resultsCsv.js';
import { csvLine } from '../../server/domain/csv.js';
import { isWellFormedText } from '../../server/domain/wellFormedText.js';

const csv = (...lines: string[]) => [RESULTS_CSV_HEADER, ...lines].join('\n');

describe('parseResultsCsv', () => {
  it('reads rows with their line numbers, lower-casing remarks and keeping empty ones as unset', () => {
    const { rows, problems, dataRows } = parseResultsCsv(csv('2026-0001,1,eColi,Not detected,negative,2026-03-04', '', '2026-0001,2,dog, 12 cfu ,POSITIVE,'));
    expect(problems).toEqual([]);
    expect(dataRows).toBe(2);
    expect(rows).toEqual([
      { line: 2, controlNumber: '2026-0001', samplePosition: 1, testCode: 'eColi', value: 'Not detected', remark: 'negative', analysisDate: '2026-03-04' },
      { line: 4, controlNumber: '2026-0001', samplePosition: 2, testCode: 'dog', value: '12 cfu', remark: 'positive', analysisDate: null },
    ]);
  });

  it('accepts a byte order mark, CRLF line ends, quoted commas and values spanning lines', () => {
    const text = `\uFEFF${RESULTS_CSV_HEADER}\r\n\r\n2026-0001,1,eColi,"<10, est.\r\nsecond line",negative,2026-03-04\r\n2026-0001,1,dog,x,negative,\r\n`;
    const { rows, problems } = parseResultsCsv(text);
    expect(problems).toEqual([]);
    expect(rows.map((r) => [r.line, r.value])).toEqual([[3, '<10, est.\nsecond line'], [5, 'x']]);
  });

  it('reports every bad field of every row with its line', () => {
    const { rows, problems } = parseResultsCsv(csv(
      ',0,ecoli,,maybe,2026-02-30',
      '2026-0001,1,eColi,ok,negative',
      '2026-0001,x1,unknownTest,ok,negative,04/03/2026',
      '2026-0001,1,eColi,fine,negative,',
    ));
    expect(rows.map((r) => r.line)).toEqual([5]);
    expect(parseResultsCsv(csv('a', 'b', 'c')).dataRows).toBe(3);
    expect(problems).toEqual([
      { line: 2, message: 'control_number is empty' },
      { line: 2, message: 'sample_position must be a whole number from 1 (got "0")' },
      { line: 2, message: 'unknown test_code "ecoli" (did you mean eColi?)' },
      { line: 2, message: 'value is empty' },
      { line: 2, message: 'remark must be positive, negative or empty (got "maybe")' },
      { line: 2, message: 'analysis_date must be a date written YYYY-MM-DD (got "2026-02-30")' },
      { line: 3, message: `expected 6 columns (${RESULTS_CSV_HEADER}), found 5` },
      { line: 4, message: 'sample_position must be a whole number from 1 (got "x1")' },
      { line: 4, message: 'unknown test_code "unknownTest"' },
      { line: 4, message: 'analysis_date must be a date written YYYY-MM-DD (got "04/03/2026")' },
    ]);
  });

  it('keeps values within the length the tester screens accept', () => {
    const { problems } = parseResultsCsv(csv(`2026-0001,1,eColi,${'x'.repeat(501)},negative,`));
    expect(problems).toEqual([{ line: 2, message: expect.stringMatching(/^value must be at most 500 characters/) }]);
  });

  it('refuses control characters such as NUL, which PostgreSQL cannot store, naming the line and column', () => {
    const { rows, problems } = parseResultsCsv(csv('2026-0001,1,eColi,Not\u0000detected,negative,', '2026\u0000-0001,1,dog,\u0007,negative,', '2026-0001,2,eColi,"<10\tcfu/g\nre-read",negative,'));
    expect(rows.map((r) => r.line)).toEqual([4]);
    expect(problems).toEqual([
      { line: 2, message: 'value contains an invalid character (control character U+0000) (got "Not\\u0000detected")' },
      { line: 3, message: 'control_number contains an invalid character (control character U+0000) (got "2026\\u0000-0001")' },
      { line: 3, message: 'value contains an invalid character (control character U+0007) (got "\\u0007")' },
    ]);
  });

  it('refuses a second row for the same sample and test', () => {
    const { rows, problems } = parseResultsCsv(csv('2026-0001,1,eColi,a,negative,', '2026-0001,1,eColi,b,positive,'));
    expect(rows).toHaveLength(1);
    expect(problems).toEqual([{ line: 3, message: 'the same sample and test as line 2' }]);
  });

  it('requires the header row and a readable file', () => {
    expect(parseResultsCsv('2026-0001,1,eColi,a,negative,').problems[0]).toEqual({
      line: 1,
      message: `the first line must be the header ${RESULTS_CSV_HEADER} (found 2026-0001,1,eColi,a,negative,)`,
    });
    expect(parseResultsCsv('').problems[0].message).toContain('the file is empty');
    const broken = parseResultsCsv(csv('2026-0001,1,eColi,"open quote,negative,'));
    expect(broken.rows).toEqual([]);
    expect(broken.problems[0].message).toMatch(/^not a readable CSV file: Quote Not Closed/);
  });

  it('reads back every value csvLine writes', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }).filter((s) => s.trim() !== '' && !s.includes('\r') && isWellFormedText(s)), (value) => {
        const { rows, problems } = parseResultsCsv(csv(csvLine(['2026-0001', 1, 'eColi', value, 'negative', ''])));
        expect(problems).toEqual([]);
        expect(rows[0].value).toBe(value.trim());
      }),
    );
  });
});

describe('resolveResultRows', () => {
  const target = (over: Partial<ImportTarget> = {}): ImportTarget => ({
    requestId: 7,
    controlNumber: '2026-0001',
    status: 'FOR_TESTING',
    tests: ['eColi', 'salmonellaSp', 'dog'],
    sampleIds: new Map([[1, 70], [2, 71]]),
    ...over,
  });
  const microbio = { id: 3, role: 'microbiotester' as const };
  const rowsOf = (...lines: string[]) => parseResultsCsv(csv(...lines)).rows;

  it('attaches request, sample and group to rows that pass', () => {
    const { entries, problems } = resolveResultRows(rowsOf('2026-0001,2,salmonellaSp,Absent,negative,2026-03-05'), new Map([['2026-0001', target()]]), microbio);
    expect(problems).toEqual([]);
    expect(entries).toEqual([expect.objectContaining({ line: 2, requestId: 7, sampleId: 71, group: 'microbio', testCode: 'salmonellaSp' })]);
  });

  it('reports unknown requests, closed requests, other disciplines, tests not ordered and missing samples', () => {
    const targets = new Map([
      ['2026-0001', target()],
      ['2026-0002', target({ requestId: 8, controlNumber: '2026-0002', status: 'RELEASED' })],
    ]);
    const { entries, problems } = resolveResultRows(
      rowsOf('2026-0099,1,eColi,x,negative,', '2026-0002,1,eColi,x,negative,', '2026-0001,1,dog,x,negative,', '2026-0001,1,campylobacter,x,negative,', '2026-0001,3,eColi,x,negative,'),
      targets,
      microbio,
    );
    expect(entries).toEqual([]);
    expect(sortProblems(problems)).toEqual([
      { line: 2, message: 'no request has control number 2026-0099' },
      { line: 3, message: 'request 2026-0002 is RELEASED: results are accepted only while it is FOR TESTING or FOR RELEASE' },
      { line: 4, message: 'dog is one of the Molecular Biology Tests, which a microbiotester account may not enter' },
      { line: 5, message: 'campylobacter was not ordered on request 2026-0001' },
      { line: 6, message: 'request 2026-0001 has no sample 3 (it has 2)' },
    ]);
  });

  it('accepts results while a request awaits release', () => {
    const { problems } = resolveResultRows(rowsOf('2026-0001,1,eColi,x,positive,'), new Map([['2026-0001', target({ status: 'FOR_RELEASE' })]]), microbio);
    expect(problems).toEqual([]);
  });
});

describe('decodeResultsCsv', () => {
  const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

  it('reads UTF-8, dropping a byte order mark', () => {
    expect(decodeResultsCsv(bytes([0xef, 0xbb, 0xbf], 'a,µ,°'))).toEqual({ text: 'a,µ,°' });
  });

  it('names the line where the text stops being UTF-8 (Windows-1252 µ)', () => {
    const result = decodeResultsCsv(bytes('header\nok\nbad ', [0xb5], '\n'));
    expect(result).toEqual({ problem: { line: 3, message: expect.stringContaining('not UTF-8 text from this line on') } });
  });

  it('recognises UTF-16 and zip (.xlsx) files', () => {
    expect(decodeResultsCsv(bytes([0xff, 0xfe], 'x'))).toEqual({ problem: { line: 1, message: expect.stringContaining('UTF-16') } });
    expect(decodeResultsCsv(bytes([0x50, 0x4b, 0x03, 0x04], 'x'))).toEqual({ problem: { line: 1, message: expect.stringContaining('Excel workbook (.xlsx)') } });
  });
});

describe('parseResultsCsv of spreadsheet variants', () => {
  const expected = [{ line: 2, controlNumber: '2026-0001', samplePosition: 1, testCode: 'eColi', value: '1,5 cfu', remark: 'negative', analysisDate: '2026-03-04' }];

  it('reads semicolon and tab separated files and columns in any order', () => {
    expect(parseResultsCsv('control_number;sample_position;test_code;value;remark;analysis_date\n2026-0001;1;eColi;1,5 cfu;negative;2026-03-04').rows).toEqual(expected);
    expect(parseResultsCsv('control_number\tsample_position\ttest_code\tvalue\tremark\tanalysis_date\n2026-0001\t1\teColi\t1,5 cfu\tnegative\t2026-03-04').rows).toEqual(expected);
    expect(parseResultsCsv('Value,Test_Code,analysis_date,remark,control_number,sample_position\n"1,5 cfu",eColi,2026-03-04,negative,2026-0001,1').rows).toEqual(expected);
  });

  it('skips rows of empty cells without counting them', () => {
    const parsed = parseResultsCsv(csv(',,,,,', '2026-0001,1,eColi,x,negative,', ' , ,,,,'));
    expect(parsed).toMatchObject({ problems: [], dataRows: 1 });
    expect(parsed.rows.map((r) => r.line)).toEqual([3]);
  });

  it('names missing, unknown and repeated header columns', () => {
    expect(parseResultsCsv('control_number,test_code,value,value,remark,analysis_date,extra\n').problems[0].message).toBe(
      `the header must name the columns ${RESULTS_CSV_HEADER} (in any order): it lacks sample_position; unknown column "extra"; value given twice`,
    );
  });

  it('warns about values a spreadsheet would run as formulas', () => {
    const { rows, warnings } = parseResultsCsv(csv('2026-0001,1,eColi,=1+1,negative,', '2026-0001,1,dog,@SUM(A1),negative,', '2026-0001,2,dog,ok,negative,'));
    expect(rows).toHaveLength(3);
    expect(warnings.map((w) => w.line)).toEqual([2, 3]);
  });
});

describe('resolveResultRows warnings', () => {
  it('warns about analysis dates in the future or before the submission', () => {
    const target: ImportTarget = { requestId: 7, controlNumber: '2026-0001', status: 'FOR_TESTING', tests: ['eColi'], sampleIds: new Map([[1, 70], [2, 71]]), submissionDate: '2026-03-01' };
    const rows = parseResultsCsv(csv('2026-0001,1,eColi,x,negative,2026-04-01', '2026-0001,2,eColi,x,negative,2026-02-28')).rows;
    const { entries, warnings } = resolveResultRows(rows, new Map([['2026-0001', target]]), { id: 3, role: 'microbiotester' }, { today: '2026-03-20' });
    expect(entries).toHaveLength(2);
    expect(warnings).toEqual([
      { line: 2, message: 'analysis_date 2026-04-01 is in the future' },
      { line: 3, message: 'analysis_date 2026-02-28 is before request 2026-0001 was submitted (2026-03-01)' },
    ]);
  });
});

describe('splitUnquoted (the fast path of parseResultsCsv)', () => {
  const asParsed = (text: string, delimiter: string) =>
    (parse(text, { info: true, bom: true, relax_column_count: true, skip_empty_lines: true, delimiter }) as unknown as { record: string[]; info: { lines: number } }[])
      .map((r) => ({ record: r.record, lines: r.info.lines }));

  it('answers what csv-parse answers for text without quotes', () => {
    const text = fc.stringMatching(/^[a-z0-9 ,;\t\n\u00b5\u{1F600}-]*$/u);
    fc.assert(
      fc.property(text, fc.constantFrom(',', ';', '\t'), (t, delimiter) => {
        expect(splitUnquoted(t, delimiter)?.map((r) => ({ record: r.record, lines: r.info.lines }))).toEqual(asParsed(t, delimiter));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves quotes, a byte order mark and broken UTF-16 to csv-parse', () => {
    expect(splitUnquoted('a,"b"\n', ',')).toBeNull();
    expect(splitUnquoted('\uFEFFa,b\n', ',')).toBeNull();
    expect(splitUnquoted('a,\uD800\n', ',')).toBeNull();
  });
});
