// The row of the analyses table, built in one place for every writer: approval plans the analyses,
// result writes set their result columns, fixtures insert them with results already entered.
import { findAnalyte } from '../domain/catalog.js';
import { reportMonth } from '../domain/requestShape.js';
import type { Decision, Measurement } from '../domain/specifications.js';

export interface EnteredResult {
  value: string | null;
  remark: string | null;
  analysisDate: string | null;
  /** Who entered it and when (ISO timestamp); kept only while the result has a value. */
  enteredBy: number | null;
  enteredAt: string;
  /** The measured value (issue 26) and the decision it got; null or absent: none. */
  measurement?: Measurement | null;
  decision?: Decision | null;
}

/** The analyses columns of a measurement and its decision (migration 019), null when there is none. */
export function judgedColumns(measurement: Measurement | null | undefined, decision: Decision | null | undefined) {
  return {
    measured_value: measurement?.value ?? null,
    measured_unit: measurement?.unit ?? null,
    uncertainty: measurement?.uncertainty ?? null,
    coverage_k: measurement?.coverageK ?? null,
    qualifier: measurement?.qualifier ?? null,
    decision_outcome: decision?.outcome ?? null,
    decision_reason: decision?.reason ?? null,
    specification_id: decision?.specificationId ?? null,
    specification_version: decision?.specificationVersion ?? null,
    decision_rule: decision?.rule ?? null,
    expected_remark: decision?.expectedRemark ?? null,
  };
}

export type JudgedRow = ReturnType<typeof judgedColumns>;

/** The measurement and decision back from the columns judgedColumns wrote. */
export function judgedOf(r: Partial<JudgedRow>): { measurement: Measurement | null; decision: Decision | null } {
  const n = (v: unknown) => (v == null ? null : Number(v));
  const measured = r.measured_value != null || r.qualifier != null;
  return {
    measurement: measured
      ? { value: n(r.measured_value), unit: r.measured_unit ?? null, uncertainty: n(r.uncertainty), coverageK: n(r.coverage_k), qualifier: (r.qualifier ?? null) as Measurement['qualifier'] }
      : null,
    decision: r.decision_outcome
      ? {
        outcome: r.decision_outcome as Decision['outcome'], reason: r.decision_reason ?? '', specificationId: Number(r.specification_id),
        specificationVersion: Number(r.specification_version), rule: r.decision_rule as Decision['rule'], expectedRemark: r.expected_remark as Decision['expectedRemark'],
      }
      : null,
  };
}

/** The columns judgedColumns names, for queries that select them. */
export const JUDGED_COLUMNS = Object.keys(judgedColumns(null, null)) as Array<keyof JudgedRow>;

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
    ...judgedColumns(entered ? result.measurement : null, entered ? result.decision : null),
  };
}
