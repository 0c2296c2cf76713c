// The client's calls of SPEC section 7: submit a request, list one's requests, read a request and
// its samples. A client reaches only its own id and requests; staff and admins read any.
import { z } from 'zod';
import { IdSchema } from '../../domain/ids.js';
import { SubmitRequestPayload } from '../../domain/requestPayload.js';
import { parseInput } from '../../validation.js';
import { assertRequestReadable, listClientRequests, readRequestDetailFor } from '../../services/requests/clientRequests.js';
import { samplesOf } from '../../services/requests/read.js';
import { submitRequest } from '../../services/requests/submit.js';
import type { AppContext, AppDeps, AppRouter } from '../context.js';
import { authorize, requireUser } from '../guards.js';
import { cachedRead } from '../middleware/cachedRead.js';
import { json, route, type RouteDoc } from '../route.js';
import { ClientRequestRowBody, RequestDetailBody, RequestWithSamplesBody } from './bodies.js';

export const UserIdParams = z.object({ userId: IdSchema });
export const RequestIdParams = z.object({ requestId: IdSchema });

/** Checks that the signed-in user may read request `requestId` (see assertRequestReadable). */
export async function authorizeRequestRead(ctx: AppContext, deps: AppDeps, requestId: number): Promise<void> {
  await assertRequestReadable(deps.db, requireUser(ctx), requestId);
}

const SUBMIT: RouteDoc = {
  method: 'post',
  path: '/requests/submitrequest/:userId',
  summary: 'Submits a testing request (the client itself).',
  params: UserIdParams,
  body: SubmitRequestPayload,
  responses: { 201: json('The request as stored, PENDING_REVIEW.', RequestWithSamplesBody) },
  errors: [403],
};
const CLIENT_REQUESTS: RouteDoc = {
  method: 'get',
  path: '/requests/clientrequest/:userId',
  summary: "A client's requests (the client itself and the desk).",
  params: UserIdParams,
  responses: { 200: json('The requests.', z.array(ClientRequestRowBody)) },
  errors: [403],
};
const SampleListBody = z.array(z.object({ sampleId: z.number().int(), sampleTypeDescription: z.string() }));
const SAMPLES: RouteDoc = {
  method: 'get',
  path: '/request/:requestId',
  summary: 'The samples of one request (owning client and the desk).',
  params: RequestIdParams,
  responses: { 200: json('The samples in row order.', SampleListBody, { example: [{ sampleId: 31, sampleTypeDescription: 'Pork loin, chilled' }] }) },
  errors: [403, 404],
};
const DETAIL: RouteDoc = {
  method: 'get',
  path: '/requests/detail/:requestId',
  summary: 'One request with samples and, once rejected, the reason given (owning client and the desk).',
  params: RequestIdParams,
  responses: { 200: json('The request.', RequestDetailBody) },
  errors: [403, 404],
};

export function clientRoutes(router: AppRouter, deps: AppDeps): void {
  const cached = cachedRead(deps);
  route(router, SUBMIT, async (ctx) => {
    const { userId } = parseInput(UserIdParams, ctx.params);
    const user = authorize(ctx, 'request:submit', { clientUserId: userId });
    const input = parseInput(SubmitRequestPayload, ctx.request.body);
    ctx.status = 201;
    ctx.body = await submitRequest(deps, user.id, input, { ip: ctx.ip });
  });

  route(router, CLIENT_REQUESTS, cached, async (ctx) => {
    const { userId } = parseInput(UserIdParams, ctx.params);
    authorize(ctx, 'request:read', { clientUserId: userId });
    ctx.body = await listClientRequests(deps.db, userId);
  });

  route(router, SAMPLES, async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    await authorizeRequestRead(ctx, deps, requestId);
    const samples = (await samplesOf(deps.db, [requestId])).get(requestId) ?? [];
    ctx.body = samples.map((s) => ({ sampleId: s.sampleId, sampleTypeDescription: s.sampleTypeDescription }));
  });

  route(router, DETAIL, async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    ctx.body = await readRequestDetailFor(deps.db, requireUser(ctx), requestId);
  });
}
