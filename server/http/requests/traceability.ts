// Traceability calls of issue 15: sample reception, the receipt as the client reads it, printable
// labels and a request's timeline.
import { ReceiptInput } from '../../domain/reception.js';
import { sampleLabels } from '../../services/requests/labels.js';
import { findReceipt, recordReceipt } from '../../services/requests/reception.js';
import { requestTimeline } from '../../services/requests/timeline.js';
import { turnaround } from '../../services/requests/turnaround.js';
import { parseInput } from '../../validation.js';
import type { AppDeps, AppRouter } from '../context.js';
import { authorize, requireUser } from '../guards.js';
import { cachedRead } from '../middleware/cachedRead.js';
import { authorizeRequestRead, RequestIdParams } from './client.js';

export function traceabilityRoutes(router: AppRouter, deps: AppDeps): void {
  router.post('/requests/receive/:requestId', async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    const user = authorize(ctx, 'request:receive');
    const input = parseInput(ReceiptInput, ctx.request.body ?? {});
    ctx.status = 201;
    ctx.body = await recordReceipt(deps, user, requestId, input, { ip: ctx.ip });
  });

  router.get('/requests/receipt/:requestId', async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    await authorizeRequestRead(ctx, deps, requestId);
    ctx.body = { receipt: await findReceipt(deps.db, requestId) };
  });

  router.get('/requests/labels/:requestId', async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    authorize(ctx, 'request:receive');
    const { controlNumber, pdf } = await sampleLabels(deps.db, requestId, deps.config.labShortName);
    ctx.type = 'application/pdf';
    ctx.attachment(`labels-${controlNumber}.pdf`, { type: 'inline' });
    ctx.body = pdf;
  });

  router.get('/requests/timeline/:requestId', async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    await authorizeRequestRead(ctx, deps, requestId);
    ctx.body = await requestTimeline(deps.db, requireUser(ctx), requestId);
  });

  router.get('/requests/turnaround', cachedRead(deps), async (ctx) => {
    const user = authorize(ctx, 'request:review');
    ctx.body = await turnaround(deps.db, user, deps.clock.now().toISOString().slice(0, 10));
  });
}
