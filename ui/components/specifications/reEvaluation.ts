/**
 * What re-evaluating a released request would change (issue 26), read before staff sign: each
 * result's stored decision beside the one it gets from the specification in force now
 * (GET /api/requests/{id}/specifications gives it per sample and test, with the rule), judged by the
 * same rule the server applies when it re-evaluates (judgeStored, sameDecision).
 */
import { findAnalyte } from '../../../server/domain/catalog.js';
import { decisionKey, GROUP_WIRE, measurementKey, resultOf, type CombinedResult, type WideResult } from '../../../server/domain/resultShape.js';
import { judgeStored, OUTCOMES, sameDecision, type Decision, type Measurement } from '../../../server/domain/specifications.js';
import type { RequestSpecifications } from '../../api/specifications.js';

export interface DecisionChange {
  sampleId: number;
  testCode: string;
  before: Decision | null;
  after: Decision | null;
}

const decisionOf = (value: unknown): Decision | null =>
  typeof value === 'object' && value !== null && OUTCOMES.includes((value as Decision).outcome) ? (value as Decision) : null;

const measurementOf = (value: unknown): Measurement | null =>
  typeof value === 'object' && value !== null && ('value' in value || 'qualifier' in value) ? (value as Measurement) : null;

/** The wide item holding sample `sampleId`'s result of `testCode`, if any. */
function itemOf(combined: CombinedResult, sampleId: number, testCode: string): WideResult | undefined {
  const group = findAnalyte(testCode)?.group;
  return group ? combined[GROUP_WIRE[group].list].find((item) => item.sampleId === sampleId) : undefined;
}

/** The decisions that re-evaluation would change, in the order the specifications list them (sample, then test). */
export function decisionChanges(combined: CombinedResult, specs: RequestSpecifications): DecisionChange[] {
  const changes: DecisionChange[] = [];
  for (const { sampleId, testCode, specification } of specs.items) {
    const item = itemOf(combined, sampleId, testCode);
    if (!item) continue;
    const { value, remark } = resultOf(item, testCode);
    const before = decisionOf(item[decisionKey(testCode)]);
    const after = judgeStored(specification, { value, remark, measurement: measurementOf(item[measurementKey(testCode)]) }, specs.rule);
    if (!sameDecision(before, after)) changes.push({ sampleId, testCode, before, after });
  }
  return changes;
}
