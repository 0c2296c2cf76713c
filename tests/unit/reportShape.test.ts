import { describe, expect, it } from 'vitest';
import { analytesOfGroup, findAnalyte } from '../../server/domain/catalog.js';
import { csvField } from '../../server/domain/csv.js';
import {
  buildGroupReport,
  groupOfReportPath,
  monthsOfYear,
  monthTotal,
  reportCsv,
  reportMonths,
} from '../../server/domain/reportShape.js';

describe('monthly report shape', () => {
  it('lists the twelve months of a year', () => {
    expect(monthsOfYear(2024)).toEqual([
      '2024-01', '2024-02', '2024-03', '2024-04', '2024-05', '2024-06',
      '2024-07', '2024-08', '2024-09', '2024-10', '2024-11', '2024-12',
    ]);
  });

  it('has every test and month of the group with zeros where nothing was counted', () => {
    const report = buildGroupReport('chemElisa', 2026, [
      { testCode: 'beta_agonists', month: '2026-02', remark: 'positive', count: 3 },
      { testCode: 'beta_agonists', month: '2026-02', remark: 'negative', count: 1 },
      { testCode: 'chloramphenicol', month: '2026-12', remark: 'negative', count: 7 },
    ]);
    expect(Object.keys(report)).toEqual(analytesOfGroup('chemElisa').map((a) => `${a.reportName}PosNegCountsByMonthAndYear`));
    // the ELISA report spells beta_agonists as betaAgonists (SPEC section 3)
    expect(report.betaAgonistsPosNegCountsByMonthAndYear['2026-02']).toEqual({ positive: 3, negative: 1 });
    expect(report.chloramphenicolPosNegCountsByMonthAndYear['2026-12']).toEqual({ positive: 0, negative: 7 });
    expect(report.stilbenesPosNegCountsByMonthAndYear['2026-05']).toEqual({ positive: 0, negative: 0 });
    expect(reportMonths(report)).toEqual(monthsOfYear(2026));
  });

  it('ignores counts of other groups, other years and rows without a remark', () => {
    const report = buildGroupReport('microbio', 2026, [
      { testCode: 'dog', month: '2026-01', remark: 'positive', count: 5 },
      { testCode: 'eColi', month: '2025-12', remark: 'positive', count: 5 },
      { testCode: 'eColi', month: '2026-01', remark: '', count: 5 },
    ]);
    expect(monthTotal(report, 'microbio', '2026-01')).toEqual({ positive: 0, negative: 0 });
    expect(report.eColiAndEColi0O157PosNegCountsByMonthAndYear).toBeDefined();
  });

  it('totals a month over the tests of the group', () => {
    const report = buildGroupReport('molBio', 2026, [
      { testCode: 'dog', month: '2026-04', remark: 'positive', count: 2 },
      { testCode: 'cat', month: '2026-04', remark: 'negative', count: 5 },
      { testCode: 'swine', month: '2026-04', remark: 'positive', count: 1 },
    ]);
    expect(monthTotal(report, 'molBio', '2026-04')).toEqual({ positive: 3, negative: 5 });
  });

  it('maps report paths to groups', () => {
    expect(groupOfReportPath('chemelisareport')).toBe('chemElisa');
    expect(groupOfReportPath('microbioreport')).toBe('microbio');
    expect(groupOfReportPath('nonsense')).toBeUndefined();
  });
});

describe('report CSV', () => {
  it('quotes fields holding commas, quotes or line breaks', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField(12)).toBe('12');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });

  it('has a header, one line per month and the totals', () => {
    const report = buildGroupReport('chemMicrobial', 2025, [
      { testCode: 'betaLactams', month: '2025-03', remark: 'positive', count: 2 },
      { testCode: 'quinolones', month: '2025-03', remark: 'negative', count: 4 },
    ]);
    const lines = reportCsv('chemMicrobial', report).split('\r\n');
    expect(lines).toHaveLength(14); // header, 12 months, trailing empty string after the last CRLF
    expect(lines[13]).toBe('');
    const header = lines[0].split(',');
    expect(header[0]).toBe('Month');
    expect(header.slice(1, 3)).toEqual([`${findAnalyte('betaLactams')!.label} Positive`, `${findAnalyte('betaLactams')!.label} Negative`]);
    expect(header.slice(-2)).toEqual(['Total Positive', 'Total Negative']);
    expect(header).toHaveLength(1 + 6 * 2 + 2);
    expect(lines[1]).toBe(`2025-01,${Array(14).fill(0).join(',')}`);
    const march = lines[3].split(',');
    expect(march[0]).toBe('2025-03');
    expect(march.slice(1, 3)).toEqual(['2', '0']);
    expect(march.slice(-4)).toEqual(['0', '4', '2', '4']);
  });

  it('names the columns after the tester panel labels', () => {
    const header = reportCsv('microbio', buildGroupReport('microbio', 2026, [])).split('\r\n')[0].split(',');
    expect(header).toHaveLength(1 + 9 * 2 + 2);
    expect(header).toContain('E. coli and E.Coli 0157:H7 Positive');
    expect(header).toContain('Standard/Aerobic Plate Count Negative');
  });
});
