/**
 * The decisions a result answer carries (issue 26, additive: `<analyte>Decision` beside each
 * analyte of a wide result item), read per sample and summed up per request (the worst wins).
 */
import { analytesOfGroup, GROUPS, type Group } from '../../../server/domain/catalog.js';
import { decisionKey, GROUP_WIRE, type CombinedResult, type WideResult } from '../../../server/domain/resultShape.js';
import { OUTCOMES, summarize, type Decision, type Outcome } from '../../../server/domain/specifications.js';

const isDecision = (value: unknown): value is Decision =>
  typeof value === 'object' && value !== null && OUTCOMES.includes((value as { outcome?: Outcome }).outcome as Outcome);

/** The decisions of one wide item of `group`, by test code. */
export function decisionsOfItem(group: Group, item: WideResult): Map<string, Decision> {
  const decisions = new Map<string, Decision>();
  for (const { code } of analytesOfGroup(group)) {
    const value = item[decisionKey(code)];
    if (isDecision(value)) decisions.set(code, value);
  }
  return decisions;
}

/** Every sample's decisions, by sample id, then by test code. */
export function decisionsBySample(combined: CombinedResult): Map<number, Map<string, Decision>> {
  const bySample = new Map<number, Map<string, Decision>>();
  for (const group of GROUPS) {
    for (const item of combined[GROUP_WIRE[group].list]) {
      bySample.set(item.sampleId, new Map([...(bySample.get(item.sampleId) ?? []), ...decisionsOfItem(group, item)]));
    }
  }
  return bySample;
}

/** A set of decisions summed up: the worst outcome, or null when nothing was judged. */
export const conformityOf = (decisions: Iterable<Decision>): Outcome | null => summarize([...decisions].map((d) => d.outcome));

/** A request's statement of conformity: the worst decision of any of its samples. */
export const requestConformity = (bySample: ReadonlyMap<number, ReadonlyMap<string, Decision>>): Outcome | null =>
  conformityOf([...bySample.values()].flatMap((d) => [...d.values()]));
