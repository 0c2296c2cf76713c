// Issue 26: the statements-of-conformity counts as the database pages and `labctl report monthly
// --conformity` lay them out: zero where nothing was judged, totals per group and month or year, CSV.
import { describe, expect, it } from 'vitest';
import { analytesOfGroup } from '../../server/domain/catalog.js';
import { conformityCsv, conformityOf, conformityTotal, hasJudgedResults, type NonConformityReport } from '../../server/domain/conformityReport.js';

const report: NonConformityReport = {
  year: 2026,
  rows: [
    { testCode: 'chloramphenicol', discipline: 'chem', month: '2026-03', doesNotConform: 2, inconclusive: 1, conforms: 4 },
    { testCode: 'ractopamine', discipline: 'chem', month: '2026-03', doesNotConform: 1, inconclusive: 0, conforms: 0 },
    { testCode: 'ractopamine', discipline: 'chem', month: '2026-11', doesNotConform: 0, inconclusive: 0, conforms: 3 },
    { testCode: 'betaLactams', discipline: 'chem', month: '2026-03', doesNotConform: 0, inconclusive: 0, conforms: 5 },
  ],
};

describe('statements of conformity per analyte and month', () => {
  it('reads a count, zero where nothing was judged', () => {
    expect(conformityOf(report, { code: 'chloramphenicol' }, '2026-03')).toMatchObject({ doesNotConform: 2, inconclusive: 1, conforms: 4 });
    expect(conformityOf(report, { code: 'chloramphenicol' }, '2026-04')).toEqual({ doesNotConform: 0, inconclusive: 0, conforms: 0 });
  });

  it('totals a group per month and over the year, without the other groups', () => {
    expect(conformityTotal(report, 'chemElisa', '2026-03')).toEqual({ doesNotConform: 3, inconclusive: 1, conforms: 4 });
    expect(conformityTotal(report, 'chemElisa')).toEqual({ doesNotConform: 3, inconclusive: 1, conforms: 7 });
    expect(conformityTotal(report, 'chemMicrobial')).toEqual({ doesNotConform: 0, inconclusive: 0, conforms: 5 });
    expect([hasJudgedResults(report, 'chemElisa'), hasJudgedResults(report, 'microbio')]).toEqual([true, false]);
  });

  it('writes the table of a group as CSV: three columns per test and the totals, every month of the year', () => {
    const lines = conformityCsv('chemElisa', report).split('\r\n');
    const tests = analytesOfGroup('chemElisa');
    expect(lines[0].split(',')).toEqual([
      'Month',
      ...[...tests.map((a) => a.label), 'Total'].flatMap((name) => [`${name} Does not conform`, `${name} Inconclusive`, `${name} Conforms`]),
    ]);
    expect(lines).toHaveLength(14); // header, twelve months, and the empty string after the last CRLF
    expect(lines[3]).toBe(`2026-03,2,1,4,${Array(18).fill(0).join(',')},1,0,0,3,1,4`);
    expect(lines[11]).toBe(`2026-11,${Array(21).fill(0).join(',')},0,0,3,0,0,3`);
    expect(lines[13]).toBe('');
  });
});
