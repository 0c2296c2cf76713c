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
import { authorize, requireUser, signedInOnly } from '../guards.js';
import { answerPage, pageAsked } from '../paging.js';
import { batchResultRoutes } from './batchRoute.js';
import { cachedRead } from '../middleware/cachedRead.js';

const SampleParams = z.object({ sampleId: IdSchema });
const RequestParams = z.object({ requestId: IdSchema });
const MAX_BATCH = 200;
export const BatchQuery = z.object({
  ids: z.preprocess(
    (ids) => (typeof ids === 'string' ? ids.split(',').filter((part) => part.trim() !== '') : ids),
    z.array(IdSchema, 'ids is required (e.g. ids=1,2,3)').min(1, 'ids must name at least one request').max(MAX_BATCH, `ids may name at most ${MAX_BATCH} requests`),
  ),
});

export const TemplateQuery = z.object({
  discipline: z.enum(DISCIPLINES, `discipline must be one of ${DISCIPLINES.join(', ')}`),
  status: z.enum(WORK_STATES, `status must be one of ${WORK_STATES.join(', ')}`).default('outstanding'),
  request: z.string().trim().min(1).max(40).optional(),
});

export function resultsRouter(deps: AppDeps): Router<AppState> {
  const cached = cachedRead(deps);
  const router = new Router<AppState>();
  // No results call is public.
  router.use(signedInOnly);
  batchResultRoutes(router, deps);

  // A work queue: the whole list unless a script asks for a page.
  router.get('/requests/for-testing', cachedRead(deps, requestsIn(OPEN_STATUSES)), async (ctx) => {
    const user = authorize(ctx, 'results:list-for-testing');
    const asked = pageAsked(ctx, { paged: false });
    answerPage(ctx, asked, await listForTesting(deps.db, { groups: visibleGroups(user), ...asked }));
  });

  // The import layout with the analyses still to enter: a download of the For Testing page.
  router.get('/results/template', async (ctx) => {
    // Who may read any For Testing list first (a client is refused whatever it asks), then the discipline.
    const user = authorize(ctx, 'results:list-for-testing');
    const { discipline, status, request } = parseInput(TemplateQuery, ctx.query);
    assertMayReadTemplate(user, discipline);
    const requestId = request === undefined ? undefined : await requestIdOf(deps.db, request);
    ctx.type = 'text/csv; charset=utf-8';
    ctx.set('Content-Disposition', `attachment; filename="results-template-${discipline}.csv"`);
    ctx.body = Readable.from(templateCsv(deps.db, { discipline, state: status, requestId }));
  });

  router.get('/getResult', async (ctx) => {
    const { ids } = parseInput(BatchQuery, ctx.query);
    ctx.body = await readRequestResults(deps.db, requireUser(ctx), [...new Set(ids)]);
  });

  router.get('/getResult/:requestId', async (ctx) => {
    const { requestId } = parseInput(RequestParams, ctx.params);
    [ctx.body] = await readRequestResults(deps.db, requireUser(ctx), [requestId]);
  });

  for (const group of GROUPS) {
    const wire = GROUP_WIRE[group];

    router.get(wire.readPath, cached, async (ctx) => {
      ctx.body = await readGroupResults(deps.db, requireUser(ctx), group);
    });

    router.put(`${wire.writePath}/:sampleId`, async (ctx) => {
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
