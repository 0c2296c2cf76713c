// Specifications and the laboratory's decision rule (issue 26): listing, versions, creation (a new
// version is a new row, never an overwrite), the rule setting, and which specification applies to
// each analysis of a request. The decisions themselves are made where results are saved (results/write.ts).
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { inShortWrite, inTransaction } from '../db/transaction.js';
import { insertSpecification, specificationsOf, specificationsWithSetting } from '../db/specificationRows.js';
import { findAnalyte } from '../domain/catalog.js';
import { can, hidesMissing, type Actor } from '../domain/policies.js';
import { groupsOfTests } from '../domain/resultShape.js';
import {
  applicableSpecification, currentVersions, DECISION_RULES, rangesOverlap, sameScope, specificationProblems,
  type DecisionRule, type Specification, type SpecificationDraft,
} from '../domain/specifications.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { recordAudit } from './audit.js';
import { readSetting, writeSetting, type SettingKey } from './settings.js';

export const today = (clock: Clock) => clock.now().toISOString().slice(0, 10);

export async function listSpecifications(db: Knex, clock: Clock, actor: Actor, query: { analyte?: string; current?: boolean }): Promise<Specification[]> {
  if (!can(actor, 'specs:read')) throw forbidden();
  const specs = await specificationsOf(db, query.analyte === undefined ? undefined : [query.analyte]);
  return query.current ? currentVersions(specs, today(clock)) : specs;
}

/** Every version of the specification `id`'s analyte and scope, newest first. */
export async function specificationHistory(db: Knex, actor: Actor, id: number): Promise<Specification[]> {
  if (!can(actor, 'specs:read')) throw forbidden();
  const spec = await db('specifications').where({ id }).first('analyte');
  if (!spec) throw notFound(`No specification with id ${id}.`);
  const all = await specificationsOf(db, [spec.analyte]);
  const self = all.find((s) => s.id === id)!;
  return all.filter((s) => sameScope(s, self)).sort((a, b) => b.version - a.version || b.id - a.id);
}

export type NewSpecification = SpecificationDraft & { supersedes?: number | null };

/**
 * Checks a new specification against those of its analyte: its own numbers (400), the analyte
 * (400), the version it supersedes (the newest of the same scope, 409), and without one, no other
 * version of the same scope in force on any of its days (409). Answers its version number.
 */
export function checkNewSpecification(existing: readonly Specification[], draft: NewSpecification): number {
  const problems = specificationProblems(draft);
  if (!findAnalyte(draft.analyte)) problems.unshift(`${draft.analyte} is not a test of the catalogue`);
  if (problems.length) throw badRequest(problems.join('; '));
  const versions = existing.filter((s) => sameScope(s, draft));
  const newest = versions.reduce<Specification | null>((a, s) => (a && a.version >= s.version ? a : s), null);
  if (draft.supersedes != null) {
    const old = existing.find((s) => s.id === draft.supersedes);
    if (!old || !sameScope(old, draft)) throw conflict(`Specification ${draft.supersedes} is not a version of ${draft.analyte} with this scope`);
    if (old !== newest) throw conflict(`Specification ${draft.supersedes} is superseded already, by version ${newest!.version}`);
    if (draft.validFrom < old.validFrom) throw conflict(`A new version cannot start (${draft.validFrom}) before the version it supersedes (${old.validFrom})`);
  } else {
    const overlapping = versions.find((s) => rangesOverlap(s, draft));
    if (overlapping) {
      throw conflict(`The dates overlap version ${overlapping.version} of ${draft.analyte} for the same scope (${overlapping.validFrom} to ${overlapping.validTo ?? 'open'}): supersede it or choose other dates`);
    }
  }
  return (newest?.version ?? 0) + 1;
}

async function nameOf(db: Knex | Knex.Transaction, actor: Actor): Promise<string> {
  const user = await db('users').where({ id: actor.id }).first('username', 'email');
  return user?.username ?? user?.email ?? `user ${actor.id}`;
}

/** Inserts a checked specification as `version` and audits it (`source`: the file an import read). */
export async function storeSpecification(
  trx: Knex.Transaction, clock: Clock, actor: Actor, draft: NewSpecification, version: number, meta: { ip?: string | null; source?: string } = {},
): Promise<Specification> {
  const created = await insertSpecification(trx, { ...draft, version, createdBy: await nameOf(trx, actor), createdAt: clock.now().toISOString() });
  const details = { specification: created, supersedes: draft.supersedes ?? null, ...(meta.source ? { source: meta.source } : {}) };
  await recordAudit(trx, clock, { actorUserId: actor.id, action: 'specification.create', ip: meta.ip ?? null, details });
  return created;
}

/** Stores a new specification (or a new version of one) and audits it. */
export async function createSpecification(deps: { db: Knex; clock: Clock }, actor: Actor, draft: NewSpecification, meta: { ip?: string | null } = {}): Promise<Specification> {
  if (!can(actor, 'specs:manage')) throw forbidden();
  return inShortWrite(deps.db, async (trx) => {
    const version = checkNewSpecification(await specificationsOf(trx, [draft.analyte]), draft);
    return storeSpecification(trx, deps.clock, actor, draft, version, meta);
  });
}

const decisionRuleOf = (stored: string | undefined): DecisionRule => ((DECISION_RULES as readonly string[]).includes(stored ?? '') ? (stored as DecisionRule) : 'simple');

export async function readDecisionRule(db: Knex | Knex.Transaction): Promise<DecisionRule> {
  return decisionRuleOf(await readSetting(db as Knex, 'decision_rule'));
}

/** The specifications of `analytes` and the decision rule (which matters only where there is one): one statement. */
export async function specificationsAndRule(db: Knex | Knex.Transaction, analytes: readonly string[]): Promise<{ specs: Specification[]; rule: DecisionRule }> {
  const { specs, setting } = await specificationsWithSetting(db, analytes, 'decision_rule' satisfies SettingKey);
  return { specs, rule: decisionRuleOf(setting) };
}

export async function getDecisionRule(db: Knex, actor: Actor): Promise<DecisionRule> {
  if (!can(actor, 'specs:read')) throw forbidden();
  return readDecisionRule(db);
}

/** Sets the laboratory's decision rule; a change is audited. Released decisions keep the rule they used. */
export async function setDecisionRule(deps: { db: Knex; clock: Clock }, actor: Actor, rule: DecisionRule, meta: { ip?: string | null } = {}): Promise<DecisionRule> {
  if (!can(actor, 'specs:manage')) throw forbidden();
  return inTransaction(deps.db, async (trx) => {
    const before = await readDecisionRule(trx);
    if (before === rule) return rule;
    await writeSetting(trx, deps.clock, 'decision_rule', rule);
    await recordAudit(trx, deps.clock, { actorUserId: actor.id, action: 'settings.decision-rule', ip: meta.ip ?? null, details: { rule: { before, after: rule } } });
    return rule;
  });
}

/** The scope of a request's analyses: what narrows a specification. */
export interface RequestScope { sampleCategory: string | null; purpose: string | null }

export const scopeOfRow = (r: { sample_category?: string | null; testing_purpose?: string | null }): RequestScope => ({
  sampleCategory: r.sample_category ?? null, purpose: r.testing_purpose ?? null,
});

/** The scope of one sample's analyses: its request's, narrowed by the sample's species of origin (null: not stated). */
export interface SampleScope extends RequestScope { species: string | null }

export const sampleScope = (request: RequestScope, species: string | null | undefined): SampleScope => ({ ...request, species: species ?? null });

export interface RequestSpecifications {
  rule: DecisionRule;
  items: Array<{ sampleId: number; testCode: string; specification: Specification | null }>;
}

/** GET /api/requests/{id}/specifications: the specification each analysis is judged against (staff, its testers, its client). */
export async function requestSpecifications(db: Knex, clock: Clock, actor: Actor, requestId: number): Promise<RequestSpecifications> {
  const request = await db('requests').where({ id: requestId }).first('client_user_id', 'sample_category', 'testing_purpose');
  if (!request) throw hidesMissing(actor) ? forbidden() : notFound(`No request with id ${requestId}.`);
  const analyses: Array<{ sample_id: number; species: string | null; test_code: string; analysis_date: string | null }> = await db('analyses')
    .join('samples', 'samples.id', 'analyses.sample_id')
    .where('analyses.request_id', requestId)
    .orderBy([{ column: 'samples.position' }, { column: 'analyses.id' }])
    .select('analyses.sample_id', 'samples.species', 'analyses.test_code', 'analyses.analysis_date');
  const tests = [...new Set(analyses.map((a) => a.test_code))];
  const mayRead = can(actor, 'results:read-request', { clientUserId: Number(request.client_user_id), requestStatus: 'RELEASED', groups: groupsOfTests(tests) });
  if (!mayRead) throw forbidden();
  const [specs, rule] = await Promise.all([specificationsOf(db, tests), readDecisionRule(db)]);
  const scope = scopeOfRow(request);
  return {
    rule,
    items: analyses.map((a) => ({
      sampleId: Number(a.sample_id),
      testCode: a.test_code,
      specification: applicableSpecification(specs, { analyte: a.test_code, ...sampleScope(scope, a.species), on: a.analysis_date ?? today(clock) }),
    })),
  };
}
