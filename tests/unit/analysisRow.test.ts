import { describe, expect, it } from 'vitest';
import { analysisRow } from '../../server/db/analyses.js';

describe('analysisRow', () => {
  it('plans an analysis with its family and result group from the catalog', () => {
    expect(analysisRow(1, 2, 'eColi')).toEqual({ request_id: 1, sample_id: 2, test_code: 'eColi', family: 'microbio', result_group: 'microbio' });
  });

  it('records an entered result with its report month and who entered it when', () => {
    const at = '2026-03-05T09:00:00.000Z';
    expect(analysisRow(1, 2, 'eColi', { value: 'Not detected', remark: 'negative', analysisDate: '2026-02-27', enteredBy: 9, enteredAt: at })).toMatchObject({
      value: 'Not detected',
      remark: 'negative',
      analysis_date: '2026-02-27',
      report_month: '2026-02',
      entered_by: 9,
      entered_at: at,
    });
    expect(analysisRow(1, 2, 'eColi', { value: 'Not detected', remark: null, analysisDate: null, enteredBy: 9, enteredAt: at })).toMatchObject({ report_month: '2026-03' });
  });

  it('clears who entered a result and its month when the value is cleared', () => {
    expect(analysisRow(1, 2, 'eColi', { value: null, remark: null, analysisDate: null, enteredBy: 9, enteredAt: '2026-03-05T09:00:00.000Z' })).toMatchObject({
      value: null,
      report_month: null,
      entered_by: null,
      entered_at: null,
    });
  });

  it('refuses a test code the catalog does not know', () => {
    expect(() => analysisRow(1, 2, 'unicorn')).toThrow('Unknown test code unicorn');
  });
});
