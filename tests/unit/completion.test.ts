import { describe, expect, it } from 'vitest';
import { completionFromCounts, completionOf } from '../../server/domain/completion.js';
import type { AnalysisRecord } from '../../server/domain/resultShape.js';
import { findAnalyte } from '../../server/domain/catalog.js';

const analysis = (testCode: string, value: string | null, remark: 'positive' | 'negative' | null, samplePosition = 1): AnalysisRecord => ({
  requestId: 1,
  sampleId: samplePosition,
  samplePosition,
  testCode,
  group: findAnalyte(testCode)!.group,
  value,
  remark,
  analysisDate: null,
});

describe('completion per family and group', () => {
  it('a family is complete when every analysis of it has a value and a remark', () => {
    const c = completionOf([
      analysis('eColi', '10 cfu/g', 'negative'),
      analysis('eColi', '12 cfu/g', 'positive', 2),
      analysis('dog', 'Detected', null),
    ]);
    expect(c).toMatchObject({ completeMicrobio: true, completeMolBio: false, completeChem: false });
  });

  it('chemical is complete only when both of its groups are (not either one)', () => {
    const partial = completionOf([analysis('betaLactams', 'Negative', 'negative'), analysis('chloramphenicol', '', 'negative')]);
    expect(partial).toMatchObject({ completeChemMicrobial: true, completeChemElisa: false, completeChem: false });
    const done = completionOf([analysis('betaLactams', 'Negative', 'negative'), analysis('chloramphenicol', '0.1 ppb', 'negative')]);
    expect(done).toMatchObject({ completeChemMicrobial: true, completeChemElisa: true, completeChem: true });
  });

  it('a family without analyses is not complete', () => {
    expect(completionOf([])).toEqual({
      completeMicrobio: false,
      completeChem: false,
      completeMolBio: false,
      completeChemMicrobial: false,
      completeChemElisa: false,
    });
  });

  it('reads the same from the per-group counts SQL makes for the lists', () => {
    expect(
      completionFromCounts({ microbio: { total: 4, complete: 4 }, chemMicrobial: { total: 2, complete: 2 }, chemElisa: { total: 2, complete: 1 } }),
    ).toEqual({ completeMicrobio: true, completeChem: false, completeMolBio: false, completeChemMicrobial: true, completeChemElisa: false });
    expect(completionFromCounts({ chemElisa: { total: 1, complete: 1 }, molBio: { total: 0, complete: 0 } })).toMatchObject({ completeChem: true, completeMolBio: false });
  });
});
