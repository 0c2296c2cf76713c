// The row of the analyses table, built in one place for every writer: approval plans the analyses,
// result writes set their result columns, fixtures insert them with results already entered.
import { findAnalyte } from '../domain/catalog.js';
import { reportMonth } from '../domain/requestShape.js';

export interface EnteredResult {
  value: string | null;
  remark: string | null;
  analysisDate: string | null;
  /** Who entered it and when (ISO timestamp); kept only while the result has a value. */
  enteredBy: number | null;
  enteredAt: string;
}

/**
 * The analyses row of test `testCode` on sample `sampleId`: family and result group from the catalog,
 * and with `result` its value, the month it reports in and who entered it (all null once the value is
 * cleared).
 */
export function analysisRow(requestId: number, sampleId: number, testCode: string, result?: EnteredResult) {
  const analyte = findAnalyte(testCode);
  if (!analyte) throw new Error(`Unknown test code ${testCode}`);
  const planned = { request_id: requestId, sample_id: sampleId, test_code: testCode, family: analyte.family, result_group: analyte.group };
  return result ? { ...planned, ...enteredResultRow(sampleId, testCode, result) } : planned;
}

/**
 * The result columns a write sets on an existing analysis (found by sample and test): what
 * analysisRow gives with a result, without the columns the analysis was planned with.
 */
export function enteredResultRow(sampleId: number, testCode: string, result: EnteredResult) {
  const entered = result.value !== null;
  return {
    sample_id: sampleId,
    test_code: testCode,
    value: result.value,
    remark: result.remark,
    analysis_date: result.analysisDate,
    report_month: entered ? reportMonth(result.analysisDate, result.enteredAt) : null,
    entered_by: entered ? result.enteredBy : null,
    entered_at: entered ? result.enteredAt : null,
  };
}
