// Specifications and the laboratory's decision rule (issue 26): GET/POST /api/specifications, the
// versions of one, the rule setting, and the specification each analysis of a request is judged against.
import Router from '@koa/router';
import { z } from 'zod';
import { IdSchema } from '../../domain/ids.js';
import { SpecificationDraftSchema } from '../../domain/specifications.js';
import {
  createSpecification, getDecisionRule, listSpecifications, requestSpecifications, setDecisionRule, specificationHistory,
} from '../../services/specifications.js';
import { parseInput } from '../../validation.js';
import type { AppDeps, AppState } from '../context.js';
import { authorize, requireUser } from '../guards.js';
import { json, route, type RouteDoc } from '../route.js';
import { RuleBody, SpecificationBody } from './bodies.js';

const ListQuery = z.object({
  analyte: z.string().trim().min(1).max(40).optional(),
  current: z.enum(['true', 'false'], 'current must be true or false').optional().transform((v) => v === 'true'),
});
const IdParams = z.object({ id: IdSchema });
const RequestParams = z.object({ requestId: IdSchema });
const CreateBody = SpecificationDraftSchema.extend({ supersedes: IdSchema.nullable().optional() });
const Items = z.object({ items: z.array(SpecificationBody) }).meta({ example: { items: [SpecificationBody.meta()?.example] } });

const LIST: RouteDoc = {
  method: 'get',
  path: '/api/specifications',
  summary: 'Specifications (staff, admins, testers): every version, or with current=true the version in force today per analyte and scope.',
  query: ListQuery,
  responses: { 200: json('The specifications.', Items) },
  errors: [403],
};
const HISTORY: RouteDoc = {
  method: 'get',
  path: '/api/specifications/:id/history',
  summary: 'Every version of the analyte and scope of specification id, newest first.',
  params: IdParams,
  responses: { 200: json('The versions.', Items) },
  errors: [403, 404],
};
const CREATE: RouteDoc = {
  method: 'post',
  path: '/api/specifications',
  summary: 'A new specification, or with supersedes a new version of one (staff, admins): never an overwrite.',
  body: CreateBody,
  responses: { 201: json('The specification as stored.', SpecificationBody) },
  errors: [403, 409],
};
const RULE: RouteDoc = {
  method: 'get',
  path: '/api/settings/decision-rule',
  summary: "The laboratory's decision rule (ILAC-G8:09/2019): simple or guarded acceptance.",
  responses: { 200: json('The rule.', RuleBody) },
  errors: [403],
};
const SET_RULE: RouteDoc = {
  method: 'put',
  path: '/api/settings/decision-rule',
  summary: "Sets the laboratory's decision rule (staff, admins); audited. Decisions already stored keep the rule they used.",
  body: RuleBody,
  responses: { 200: json('The rule now in force.', RuleBody) },
  errors: [403],
};
const OF_REQUEST: RouteDoc = {
  method: 'get',
  path: '/api/requests/:requestId/specifications',
  summary: 'The specification each analysis of a request is judged against (in force on its analysis date, else today), and the rule.',
  params: RequestParams,
  responses: {
    200: json('Per sample and test.', z.object({
      rule: RuleBody.shape.rule,
      items: z.array(z.object({ sampleId: z.number().int(), testCode: z.string(), specification: SpecificationBody.nullable() })),
    }).meta({ example: { rule: 'simple', items: [{ sampleId: 31, testCode: 'chloramphenicol', specification: SpecificationBody.meta()?.example }] } })),
  },
  errors: [403, 404],
};

export function specificationsRouter(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();

  route(router, LIST, async (ctx) => {
    const user = authorize(ctx, 'specs:read');
    const query = parseInput(ListQuery, ctx.query);
    ctx.body = { items: await listSpecifications(deps.db, deps.clock, user, query) };
  });

  route(router, HISTORY, async (ctx) => {
    const user = authorize(ctx, 'specs:read');
    const { id } = parseInput(IdParams, ctx.params);
    ctx.body = { items: await specificationHistory(deps.db, user, id) };
  });

  route(router, CREATE, async (ctx) => {
    // Permission before the input: someone who may not create learns nothing from validation.
    const user = authorize(ctx, 'specs:manage');
    const draft = parseInput(CreateBody, ctx.request.body ?? {});
    ctx.status = 201;
    ctx.body = await createSpecification(deps, user, draft, { ip: ctx.ip });
  });

  route(router, RULE, async (ctx) => {
    ctx.body = { rule: await getDecisionRule(deps.db, requireUser(ctx)) };
  });

  route(router, SET_RULE, async (ctx) => {
    const user = authorize(ctx, 'specs:manage');
    const { rule } = parseInput(RuleBody, ctx.request.body ?? {});
    ctx.body = { rule: await setDecisionRule(deps, user, rule, { ip: ctx.ip }) };
  });

  route(router, OF_REQUEST, async (ctx) => {
    const user = requireUser(ctx);
    const { requestId } = parseInput(RequestParams, ctx.params);
    ctx.body = await requestSpecifications(deps.db, deps.clock, user, requestId);
  });

  return router;
}
