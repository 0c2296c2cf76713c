// The results calls of SPEC section 7: the tester lists and writes per group, the combined result of
// a request (getResult), and the requests awaiting tests.
import Router from '@koa/router';
import { z } from 'zod';
import { DISCIPLINE_GROUPS, GROUPS, type Group } from '../../domain/catalog.js';
import { IdSchema } from '../../domain/ids.js';
import { can } from '../../domain/policies.js';
import { GROUP_WIRE, groupsOfTests, limitToGroups, parseWidePayload, toWideResults, type CombinedResult } from '../../domain/resultShape.js';
import { disciplineOf } from '../../domain/roles.js';
import { inTransaction } from '../../db/transaction.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import { listRequests } from '../../services/requests/read.js';
import { listForTesting } from '../../services/requests/lists.js';
import { analysesOf, combinedResults, groupResults } from '../../services/results/read.js';
import { writeResults } from '../../services/results/write.js';
import type { User } from '../../services/users.js';
import { parseInput } from '../../validation.js';
import type { AppContext, AppDeps, AppState } from '../context.js';
import { authorize, requireUser, signedInOnly } from '../guards.js';
import { answerPage, pageAsked } from '../paging.js';

const SampleParams = z.object({ sampleId: IdSchema });
const RequestParams = z.object({ requestId: IdSchema });
const MAX_BATCH = 200;
const BatchQuery = z.object({
  ids: z.preprocess(
    (ids) => (typeof ids === 'string' ? ids.split(',').filter((part) => part.trim() !== '') : ids),
    z.array(IdSchema, 'ids is required (e.g. ids=1,2,3)').min(1, 'ids must name at least one request').max(MAX_BATCH, `ids may name at most ${MAX_BATCH} requests`),
  ),
});

/** A tester sees the results of its own discipline only; the desk and clients see every group. */
function visibleGroups(user: User): readonly Group[] {
  const discipline = disciplineOf(user.role);
  return discipline === null ? GROUPS : DISCIPLINE_GROUPS[discipline];
}

export function resultsRouter(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  // No results call is public.
  router.use(signedInOnly);

  /**
   * Combined results of requests the user may read; 403 for one not theirs, 404 for a missing one
   * (403 for a client, as for someone else's request, so a client cannot probe which ids exist).
   */
  async function readableResults(ctx: AppContext, requestIds: number[]): Promise<CombinedResult[]> {
    const user = requireUser(ctx);
    const notTheirs = 'You do not have permission to read these results.';
    const requests = await listRequests(deps.db, (q) => q.whereIn('requests.id', requestIds));
    const found = new Map(requests.map((r) => [r.requestId, r]));
    const missing = requestIds.filter((id) => !found.has(id));
    if (missing.length) throw user.role === 'client' ? forbidden(notTheirs) : notFound(`No request with id ${missing.join(', ')}.`);
    for (const r of requests) {
      const resource = { clientUserId: r.clientUserId, requestStatus: r.requestStatus, groups: groupsOfTests(r.tests) };
      if (!can(user, 'results:read-request', resource)) {
        throw forbidden(
          user.role === 'client' && r.clientUserId === user.id ? 'The results of this request are not released yet.' : notTheirs,
        );
      }
    }
    const groups = visibleGroups(user);
    return (await combinedResults(deps.db, requestIds)).map((c) => limitToGroups(c, groups));
  }

  // A work queue: the whole list unless a script asks for a page.
  router.get('/requests/for-testing', async (ctx) => {
    const user = authorize(ctx, 'results:list-for-testing');
    const asked = pageAsked(ctx, { paged: false });
    const discipline = disciplineOf(user.role);
    answerPage(ctx, asked, await listForTesting(deps.db, { groups: discipline ? DISCIPLINE_GROUPS[discipline] : undefined, ...asked }));
  });

  router.get('/getResult', async (ctx) => {
    const { ids } = parseInput(BatchQuery, ctx.query);
    ctx.body = await readableResults(ctx, [...new Set(ids)]);
  });

  router.get('/getResult/:requestId', async (ctx) => {
    const { requestId } = parseInput(RequestParams, ctx.params);
    const [combined] = await readableResults(ctx, [requestId]);
    ctx.body = combined;
  });

  for (const group of GROUPS) {
    const wire = GROUP_WIRE[group];

    router.get(wire.readPath, async (ctx) => {
      const user = authorize(ctx, 'results:read', { group });
      // Testers work on open requests; the desk may look at every request's results.
      ctx.body = await groupResults(deps.db, group, { openOnly: disciplineOf(user.role) !== null });
    });

    router.put(`${wire.writePath}/:sampleId`, async (ctx) => {
      const user = authorize(ctx, 'results:write', { group });
      const { sampleId } = parseInput(SampleParams, ctx.params);
      const parsed = parseWidePayload(group, ctx.request.body);
      if (!parsed.ok) throw badRequest(parsed.problems.join('; '));
      ctx.body = await inTransaction(deps.db, async (trx) => {
        const sample = await trx('samples').where('id', sampleId).first('request_id');
        if (!sample) throw notFound(`No sample with id ${sampleId}.`);
        const requestId = Number(sample.request_id);
        await writeResults(trx, {
          clock: deps.clock,
          actor: user,
          ip: ctx.ip,
          entries: parsed.entries.map((e) => ({ ...e, requestId, sampleId })),
        });
        const [item] = toWideResults(group, (await analysesOf(trx, [requestId])).filter((a) => a.sampleId === sampleId));
        return item ?? { sampleId, result: { requestId } };
      });
    });
  }

  return router;
}
