/**
 * Specifications (issue 26, under /api): the limits each analyte's results are judged against, their versions,
 * the laboratory's decision rule, and the specifications that apply to one request's analyses.
 */
import type { DecisionRule, Specification } from '../../server/domain/specifications.js';
import { getJson, postJson, putJson, segment, withQuery } from './http.js';

export type { DecisionRule, Specification };

/** What staff send to add a specification (or, with `supersedes`, a new version of one). */
export type SpecificationInput = Omit<Specification, 'id' | 'version' | 'createdBy' | 'createdAt'> & { supersedes?: number };

/** GET /specifications: the current ones (or every version), of one analyte or all. */
export async function listSpecifications(query: { analyte?: string | null; current?: boolean }, signal?: AbortSignal): Promise<Specification[]> {
  return (await getJson<{ items: Specification[] }>(withQuery('/api/specifications', { analyte: query.analyte || null, current: query.current ?? true }), signal)).items;
}

/** GET /specifications/{id}/history: every version of that analyte and scope, newest first. */
export async function getSpecificationHistory(id: number, signal?: AbortSignal): Promise<Specification[]> {
  return (await getJson<{ items: Specification[] }>(`/api/specifications/${segment(id)}/history`, signal)).items;
}

export function createSpecification(input: SpecificationInput): Promise<Specification> {
  return postJson<Specification>('/api/specifications', input);
}

export async function getDecisionRule(signal?: AbortSignal): Promise<DecisionRule> {
  return (await getJson<{ rule: DecisionRule }>('/api/settings/decision-rule', signal)).rule;
}

export async function setDecisionRule(rule: DecisionRule): Promise<DecisionRule> {
  return (await putJson<{ rule: DecisionRule }>('/api/settings/decision-rule', { rule })).rule;
}

export interface RequestSpecifications {
  rule: DecisionRule;
  items: Array<{ sampleId: number; testCode: string; specification: Specification | null }>;
}

/** GET /requests/{id}/specifications: the specification applicable to each ticked sample and analyte. */
export function getRequestSpecifications(requestId: number, signal?: AbortSignal): Promise<RequestSpecifications> {
  return getJson<RequestSpecifications>(`/api/requests/${segment(requestId)}/specifications`, signal);
}
