// The results calls of SPEC section 7: the tester lists and writes per group, the combined result of
// a request (getResult), and the requests awaiting tests. Each route parses, authorizes, calls one
// service and presents its answer.
import { Readable } from 'node:stream';
import Router from '@koa/router';
import { z } from 'zod';
import { GROUPS } from '../../domain/catalog.js';
import { IdSchema } from '../../domain/ids.js';
import { visibleGroups } from '../../domain/policies.js';
import { GROUP_WIRE, parseWidePayload } from '../../domain/resultShape.js';
import { badRequest } from '../../errors.js';
import { listForTesting } from '../../services/requests/lists.js';
import { readGroupResults, readRequestResults } from '../../services/results/read.js';
import { writeSampleResults } from '../../services/results/write.js';
import { assertMayReadTemplate, requestIdOf, templateCsv } from '../../services/results/template.js';
import { DISCIPLINES } from '../../domain/roles.js';
import { WORK_STATES } from '../../domain/queue.js';
import { parseInput } from '../../validation.js';
import type { AppDeps, AppState } from '../context.js';
import { requestsIn } from '../../services/readCache.js';
import { OPEN_STATUSES } from '../../domain/requestStatus.js';
import { authorize, requireUser } from '../guards.js';
import { answerPage, pageAsked } from '../paging.js';
import { batchResultRoutes } from './batchRoute.js';
import { cachedRead } from '../middleware/cachedRead.js';
import { PageQuery } from '../../domain/paging.js';
import { csv, json, route, type RouteDoc } from '../route.js';
import { ForTestingRowBody } from '../requests/bodies.js';
import { CombinedResultBody, WidePayload, WideResultBody } from './bodies.js';

const SampleParams = z.object({ sampleId: IdSchema });
const RequestParams = z.object({ requestId: IdSchema });
const MAX_BATCH = 200;
export const BatchQuery = z.object({
  ids: z.preprocess(
    (ids) => (typeof ids === 'string' ? ids.split(',').filter((part) => part.trim() !== '') : ids),
    z.array(IdSchema, 'ids is required (e.g. ids=1,2,3)').min(1, 'ids must name at least one request').max(MAX_BATCH, `ids may name at most ${MAX_BATCH} requests`),
  ).meta({ description: 'Request ids separated by commas: ids=1,2,3.', param: { required: true, style: 'form', explode: false } }),
});

export const TemplateQuery = z.object({
  discipline: z.enum(DISCIPLINES, `discipline must be one of ${DISCIPLINES.join(', ')}`),
  status: z.enum(WORK_STATES, `status must be one of ${WORK_STATES.join(', ')}`).default('outstanding'),
  request: z.string().trim().min(1).max(40).optional(),
});

const FOR_TESTING: RouteDoc = {
  method: 'get',
  path: '/requests/for-testing',
  summary: 'Requests being tested in the caller’s discipline (testers, desk): the whole list unless limit/offset ask for a page.',
  query: PageQuery,
  responses: { 200: json('The rows.', z.array(ForTestingRowBody), { headers: ['X-Total-Count', 'Link'] }) },
  errors: [403],
};
const TEMPLATE: RouteDoc = {
  method: 'get',
  path: '/results/template',
  summary: "The analyses of a discipline awaiting results (status outstanding, finished or all; one request with request=) as the results import CSV with empty values (staff, the discipline's testers).",
  query: TemplateQuery,
  responses: { 200: csv('The import layout.') },
  errors: [403, 404],
};
const RESULTS_OF_MANY: RouteDoc = {
  method: 'get',
  path: '/getResult',
  summary: 'The results of several requests at once (ids=1,2,3).',
  query: BatchQuery,
  responses: { 200: json('A combined result per request the caller may read.', z.array(CombinedResultBody)) },
  errors: [403, 404],
};
const RESULTS_OF_ONE: RouteDoc = {
  method: 'get',
  path: '/getResult/:requestId',
  summary: 'The results of one request (released ones for its client).',
  params: RequestParams,
  responses: { 200: json('The combined result (SPEC section 3).', CombinedResultBody) },
  errors: [403, 404],
};
const groupRead = (path: string): RouteDoc => ({
  method: 'get',
  path,
  summary: 'The results of one discipline group (testers: open requests of their discipline).',
  responses: { 200: json('A wide result per sample.', z.array(WideResultBody)) },
  errors: [403],
});
const groupWrite = (path: string): RouteDoc => ({
  method: 'put',
  path,
  summary: 'Saves the results of one sample in a group (the wide shape of DESIGN.md section 6).',
  params: SampleParams,
  body: WidePayload,
  responses: { 200: json("The sample's results as stored.", WideResultBody) },
  errors: [403, 404, 409],
});

export function resultsRouter(deps: AppDeps): Router<AppState> {
  const cached = cachedRead(deps);
  const router = new Router<AppState>();
  batchResultRoutes(router, deps);

  // A work queue: the whole list unless a script asks for a page.
  route(router, FOR_TESTING, cachedRead(deps, requestsIn(OPEN_STATUSES)), async (ctx) => {
    const user = authorize(ctx, 'results:list-for-testing');
    const asked = pageAsked(ctx, { paged: false });
    answerPage(ctx, asked, await listForTesting(deps.db, { groups: visibleGroups(user), ...asked }));
  });

  // The import layout with the analyses still to enter: a download of the For Testing page.
  route(router, TEMPLATE, async (ctx) => {
    // Who may read any For Testing list first (a client is refused whatever it asks), then the discipline.
    const user = authorize(ctx, 'results:list-for-testing');
    const { discipline, status, request } = parseInput(TemplateQuery, ctx.query);
    assertMayReadTemplate(user, discipline);
    const requestId = request === undefined ? undefined : await requestIdOf(deps.db, request);
    ctx.type = 'text/csv; charset=utf-8';
    ctx.set('Content-Disposition', `attachment; filename="results-template-${discipline}.csv"`);
    ctx.body = Readable.from(templateCsv(deps.db, { discipline, state: status, requestId }));
  });

  route(router, RESULTS_OF_MANY, async (ctx) => {
    const { ids } = parseInput(BatchQuery, ctx.query);
    ctx.body = await readRequestResults(deps.db, requireUser(ctx), [...new Set(ids)]);
  });

  route(router, RESULTS_OF_ONE, async (ctx) => {
    const { requestId } = parseInput(RequestParams, ctx.params);
    [ctx.body] = await readRequestResults(deps.db, requireUser(ctx), [requestId]);
  });

  for (const group of GROUPS) {
    const wire = GROUP_WIRE[group];

    route(router, groupRead(wire.readPath), cached, async (ctx) => {
      ctx.body = await readGroupResults(deps.db, requireUser(ctx), group);
    });

    route(router, groupWrite(`${wire.writePath}/:sampleId`), async (ctx) => {
      // Permission before the input: someone who may not write this group learns nothing from validation.
      const user = authorize(ctx, 'results:write', { group });
      const { sampleId } = parseInput(SampleParams, ctx.params);
      const parsed = parseWidePayload(group, ctx.request.body);
      if (!parsed.ok) throw badRequest(parsed.problems.join('; '));
      ctx.body = await writeSampleResults(deps, user, { group, sampleId, entries: parsed.entries }, { ip: ctx.ip });
    });
  }

  return router;
}
