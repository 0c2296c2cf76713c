// The client's calls of SPEC section 7: submit a request, list one's requests, read a request and
// its samples. A client reaches only its own id and requests; staff and admins read any.
import { z } from 'zod';
import { IdSchema } from '../../domain/ids.js';
import { SubmitRequestPayload } from '../../domain/requestPayload.js';
import { parseInput } from '../../validation.js';
import { assertRequestReadable, listClientRequests } from '../../services/requests/clientRequests.js';
import { readRequestDetail, samplesOf } from '../../services/requests/read.js';
import { submitRequest } from '../../services/requests/submit.js';
import type { AppContext, AppDeps, AppRouter } from '../context.js';
import { authorize, requireUser } from '../guards.js';
import { cachedRead } from '../middleware/cachedRead.js';

export const UserIdParams = z.object({ userId: IdSchema });
export const RequestIdParams = z.object({ requestId: IdSchema });

/** Checks that the signed-in user may read request `requestId` (see assertRequestReadable). */
export async function authorizeRequestRead(ctx: AppContext, deps: AppDeps, requestId: number): Promise<void> {
  await assertRequestReadable(deps.db, requireUser(ctx), requestId);
}

export function clientRoutes(router: AppRouter, deps: AppDeps): void {
  const cached = cachedRead(deps);
  router.post('/requests/submitrequest/:userId', async (ctx) => {
    const { userId } = parseInput(UserIdParams, ctx.params);
    const user = authorize(ctx, 'request:submit', { clientUserId: userId });
    const input = parseInput(SubmitRequestPayload, ctx.request.body);
    ctx.status = 201;
    ctx.body = await submitRequest(deps, user.id, input, { ip: ctx.ip });
  });

  router.get('/requests/clientrequest/:userId', cached, async (ctx) => {
    const { userId } = parseInput(UserIdParams, ctx.params);
    authorize(ctx, 'request:read', { clientUserId: userId });
    ctx.body = await listClientRequests(deps.db, userId);
  });

  router.get('/request/:requestId', async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    await authorizeRequestRead(ctx, deps, requestId);
    const samples = (await samplesOf(deps.db, [requestId])).get(requestId) ?? [];
    ctx.body = samples.map((s) => ({ sampleId: s.sampleId, sampleTypeDescription: s.sampleTypeDescription }));
  });

  router.get('/requests/detail/:requestId', async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    await authorizeRequestRead(ctx, deps, requestId);
    ctx.body = (await readRequestDetail(deps.db, requestId))!;
  });
}
