// PUT results/request/{requestId}: a tester's whole Save of one request in one call and one
// transaction, beside SPEC's per-group PUT calls (which stay).
import { z } from 'zod';
import { IdSchema } from '../../domain/ids.js';
import { ResultFields } from '../../domain/resultShape.js';
import { MeasurementSchema } from '../../domain/specifications.js';
import { assertEntersResults, saveRequestResults } from '../../services/results/saveRequest.js';
import { parseInput } from '../../validation.js';
import type { AppDeps, AppRouter } from '../context.js';
import { requireUser } from '../guards.js';
import { json, route, type RouteDoc } from '../route.js';
import { SavedRequestBody } from './bodies.js';

/** More than any request has (samples x analytes of one discipline). */
const MAX_ENTRIES = 2000;

const Params = z.object({ requestId: IdSchema });
const Body = z.strictObject({
  entries: z
    .array(
      z.strictObject({
        sampleId: IdSchema,
        testCode: z.string('must be a test code').max(40, 'is not a test'),
        ...ResultFields.shape,
        // Issue 26, additive: absent leaves the stored measurement.
        measurement: MeasurementSchema.nullable().optional(),
        remarkConfirmed: z.boolean('must be true or false').optional(),
      }),
      'must be a list',
    )
    .max(MAX_ENTRIES, `may hold at most ${MAX_ENTRIES} entries`),
});

const SAVE_REQUEST: RouteDoc = {
  method: 'put',
  path: '/results/request/:requestId',
  summary: "A tester's whole Save of one request of its discipline, in one transaction (all or nothing).",
  params: Params,
  body: Body,
  responses: { 200: json('What was saved.', SavedRequestBody) },
  errors: [403, 404, 409],
};

export function batchResultRoutes(router: AppRouter, deps: AppDeps): void {
  route(router, SAVE_REQUEST, async (ctx) => {
    const user = requireUser(ctx);
    const { requestId } = parseInput(Params, ctx.params);
    assertEntersResults(user);
    const { entries } = parseInput(Body, ctx.request.body ?? {});
    ctx.body = await saveRequestResults(deps, user, { requestId, entries }, { ip: ctx.ip });
  });
}
