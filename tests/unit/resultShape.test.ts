import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  displayedResultFields,
  groupsOfTests,
  humanizeFieldName,
  isGroupComplete,
  limitToGroups,
  normalizeResult,
  parseResultFields,
  parseWidePayload,
  ResultFields,
  resultOf,
  testResultsBySample,
  toCombinedResult,
  toWideResults,
  type AnalysisRecord,
} from '../../server/domain/resultShape.js';

const analysis = (over: Partial<AnalysisRecord>): AnalysisRecord => ({
  requestId: 1, sampleId: 10, samplePosition: 1, testCode: 'eColi', group: 'microbio', value: null, remark: null, analysisDate: null, ...over,
});

describe('wide result shapes', () => {
  const rows = [
    analysis({ sampleId: 11, samplePosition: 2, value: '<10', remark: 'negative', analysisDate: '2026-03-10' }),
    analysis({ sampleId: 10, samplePosition: 1, value: '40 cfu/g', remark: 'positive' }),
    analysis({ sampleId: 10, samplePosition: 1, testCode: 'dog', group: 'molBio' }),
  ];

  it('makes one item per sample in sample order, with every analyte of the group', () => {
    const items = toWideResults('microbio', rows);
    expect(items.map((i) => i.sampleId)).toEqual([10, 11]);
    expect(items[1]).toMatchObject({ result: { requestId: 1 }, eColi: '<10', eColiRemarks: 'negative', eColiAnalysisDate: '2026-03-10', salmonellaSp: null, salmonellaSpRemarks: null });
    // Issue 26 adds <analyte>Measurement and <analyte>Decision for the analytes the sample has (eColi).
    expect(Object.keys(items[0])).toHaveLength(2 + 9 * 3 + 2);
    expect(items[0]).toMatchObject({ eColiMeasurement: null, eColiDecision: null });
    expect(items[0]).not.toHaveProperty('salmonellaSpDecision');
    expect(toWideResults('chemElisa', rows)).toEqual([]);
  });

  it('flags a group complete only when it has analyses and each has a value and a remark', () => {
    expect(isGroupComplete('microbio', rows)).toBe(true);
    expect(isGroupComplete('molBio', rows)).toBe(false);
    expect(isGroupComplete('chemElisa', rows)).toBe(false);
    const combined = toCombinedResult(1, rows);
    expect(combined).toMatchObject({ requestId: 1, completeMicrobio: true, completeMolBio: false, chemElisaTestResults: [] });
    expect(limitToGroups(combined, ['molBio'])).toMatchObject({ microbioTestResults: [], molBioTestResults: [expect.objectContaining({ dog: null })] });
  });

  it('reads one analyte back from a wide item, blank or unknown fields as null', () => {
    const [first, second] = toWideResults('microbio', rows);
    expect(resultOf(second, 'eColi')).toEqual({ value: '<10', remark: 'negative', analysisDate: '2026-03-10' });
    expect(resultOf(first, 'eColi')).toEqual({ value: '40 cfu/g', remark: 'positive', analysisDate: null });
    expect(resultOf(first, 'salmonellaSp')).toEqual({ value: null, remark: null, analysisDate: null });
    expect(resultOf({ ...first, eColi: '  ', eColiRemarks: 'maybe', eColiAnalysisDate: '' }, 'eColi')).toEqual({ value: null, remark: null, analysisDate: null });
    expect(resultOf(first, 'sampleId').value).toBeNull();
  });

  it('names the groups of ticked tests', () => {
    expect(groupsOfTests(['dog', 'eColi', 'beta_agonists'])).toEqual(['microbio', 'chemElisa', 'molBio']);
  });
});

describe('PUT payloads', () => {
  it('reads the analytes sent, a missing remark as none and a missing date as null', () => {
    expect(parseWidePayload('microbio', { eColi: ' 12 ', eColiRemarks: 'positive', eColiAnalysisDate: '2026-03-01', salmonellaSp: 'absent', sampleId: 3 })).toEqual({
      ok: true,
      entries: [
        { testCode: 'salmonellaSp', value: 'absent', remark: '', analysisDate: null },
        { testCode: 'eColi', value: ' 12 ', remark: 'positive', analysisDate: '2026-03-01' },
      ],
    });
  });

  it('lists every problem, naming the analyte', () => {
    const parsed = parseWidePayload('chemElisa', {
      chloramphenicol: 'x'.repeat(501), chloramphenicolRemarks: 'unsure', stilbenes: 'ok', stilbenesAnalysisDate: '2026-13-01',
      betaLactams: '1', betaLactamsRemarks: 'positive', ractopamineRemarks: 'negative', ractopamineAnalysisDate: null, colour: 'red',
    });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems).toEqual([
      'betaLactams is not a chemistry ELISA test',
      'ractopamine: remark or analysis date sent without a value',
      'colour is not a result field',
      'chloramphenicol: must be at most 500 characters',
      "chloramphenicolRemarks: must be '', 'positive' or 'negative'",
      'stilbenesAnalysisDate: must be a date written YYYY-MM-DD',
    ]);
    expect(parseWidePayload('molBio', [1])).toEqual({ ok: false, problems: ['The results must be a JSON object of analyte fields.'] });
  });

  it('reads a measurement (issue 26) with or without the text, and the confirmation of a differing remark', () => {
    expect(parseWidePayload('chemElisa', { chloramphenicolMeasurement: { value: 0.4, uncertainty: 0.05 }, chloramphenicolRemarks: 'negative', chloramphenicolRemarkConfirmed: true, chloramphenicolDecision: null })).toEqual({
      ok: true,
      entries: [{
        testCode: 'chloramphenicol', value: null, remark: 'negative', analysisDate: null, remarkConfirmed: true,
        measurement: { value: 0.4, unit: null, uncertainty: 0.05, coverageK: null, qualifier: null },
      }],
    });
    expect(parseWidePayload('chemElisa', { chloramphenicolMeasurement: { value: 'high' }, nitrofuranAozMeasurement: { qualifier: 'below_loq', value: 1 }, ractopamineMeasurement: null, olaquindox: 'ND', olaquindoxRemarkConfirmed: 'yes' })).toEqual({
      ok: false,
      problems: [
        'chloramphenicolMeasurement: value must be a number',
        'nitrofuranAozMeasurement: a value cannot be < LOQ or not detected at the same time',
        'olaquindoxRemarkConfirmed: must be true or false',
        'ractopamineMeasurement: null clears a measurement only with the value ractopamine',
      ],
    });
  });

  it('refuses control characters such as NUL in a value, keeping tabs and line breaks', () => {
    expect(parseWidePayload('microbio', { eColi: 'Not\u0000detected', eColiRemarks: 'negative', salmonellaSp: 'absent\u001b[0m' })).toEqual({
      ok: false,
      problems: ['salmonellaSp: contains an invalid character (control character U+001B)', 'eColi: contains an invalid character (control character U+0000)'],
    });
    expect(parseWidePayload('microbio', { eColi: '<10\tcfu/g\r\nre-read' })).toMatchObject({ ok: true });
  });

  it('clears the whole result when the value is empty', () => {
    expect(normalizeResult({ value: '  ', remark: 'positive', analysisDate: '2026-03-01' })).toEqual({ value: null, remark: null, analysisDate: null });
    expect(normalizeResult({ value: 'x', remark: '', analysisDate: '' })).toEqual({ value: 'x', remark: null, analysisDate: null });
  });
});

describe('result details on the Test Results screens', () => {
  it('turns camel case into spaced capitalised words', () => {
    expect(humanizeFieldName('standardPlateCount')).toBe('Standard Plate Count');
    expect(humanizeFieldName('betaLactamsRemarks')).toBe('Beta Lactams Remarks');
    expect(humanizeFieldName('beta_agonists')).toBe('Beta Agonists');
    expect(humanizeFieldName('eColi')).toBe('E Coli');
  });

  it('lists non-null plain fields, leaving out names with Date, Id or sample', () => {
    expect(displayedResultFields({
      sampleId: 4, result: { requestId: 2 }, eColi: '<10', eColiRemarks: 'negative', eColiAnalysisDate: '2026-03-01',
      salmonellaSp: null, sampleTypeDescription: 'Beef', requestId: 2, campylobacterRemarks: '', aminoglycosides: 'ND',
    })).toEqual([
      { name: 'eColi', label: 'E Coli', value: '<10' },
      { name: 'eColiRemarks', label: 'E Coli Remarks', value: 'negative' },
      // Only the capitalised 'Id' counts: aminoglycosides stays.
      { name: 'aminoglycosides', label: 'Aminoglycosides', value: 'ND' },
    ]);
  });
});

describe('results per sample, as the For Release table shows them', () => {
  const rows = [
    analysis({ sampleId: 20, samplePosition: 2, testCode: 'dog', group: 'molBio', value: 'Detected', remark: 'positive' }),
    analysis({ sampleId: 10, samplePosition: 1, testCode: 'dog', group: 'molBio' }),
    analysis({ sampleId: 10, samplePosition: 1, testCode: 'betaLactams', group: 'chemMicrobial', value: 'Negative', remark: 'negative', analysisDate: '2026-03-10' }),
    analysis({ sampleId: 10, samplePosition: 1, value: '<10 cfu/g', remark: 'negative' }),
    analysis({ sampleId: 20, samplePosition: 2, testCode: 'salmonellaSp', value: 'Absent', remark: 'negative' }),
  ];

  it('lists each sample\'s ticked tests in catalog order, an empty one as unset, and any other analyte with a value', () => {
    const bySample = testResultsBySample(toCombinedResult(1, rows), ['eColi', 'betaLactams', 'dog']);
    expect(bySample.get(10)).toEqual([
      { testCode: 'eColi', value: '<10 cfu/g', remark: 'negative', analysisDate: null },
      { testCode: 'betaLactams', value: 'Negative', remark: 'negative', analysisDate: '2026-03-10' },
      { testCode: 'dog', value: null, remark: null, analysisDate: null },
    ]);
    // salmonellaSp was not ticked but has a value: it is shown rather than hidden.
    expect(bySample.get(20)?.map((r) => r.testCode)).toEqual(['salmonellaSp', 'eColi', 'dog']);
  });
});

describe('parseResultFields', () => {
  const field = (...samples: unknown[]) => fc.oneof(fc.constantFrom(...samples), fc.string(), fc.string({ minLength: 495, maxLength: 505 }));
  const same = (input: object) => {
    const fast = parseResultFields(input);
    const zod = ResultFields.safeParse(input);
    expect(fast.success).toBe(zod.success);
    if (fast.success && zod.success) expect(fast.data).toEqual(zod.data);
    else expect(fast.error?.issues).toEqual(zod.error?.issues);
  };

  it('answers what ResultFields.safeParse answers', () => {
    const input = fc.record(
      {
        value: field(null, '', ' ', '12 cfu', 'a\u0000b', 'tab\there', 'x'.repeat(500), 'x'.repeat(501), 5, undefined),
        remark: field(null, '', 'positive', 'negative', 'Positive', 'none', 1, undefined),
        analysisDate: field(null, '', '2026-03-04', '2026-02-30', '2024-02-29', '2023-02-29', '0050-01-01', '0100-01-01', '2026-3-4', 20260304, undefined),
      },
      { requiredKeys: [] },
    );
    fc.assert(fc.property(input, same), { numRuns: 500 });
    same({ value: '1', remark: '', analysisDate: '2026-03-04', testCode: 'eColi', label: 'line 2' });
  });
});
