// The receive-and-release desk's calls of SPEC section 7 (pending list, approve, reject, release,
// control numbers, the for-release and released lists) and the additional-information exchange of
// DESIGN.md section 5. Staff and admins only, except: testers read the for-release and released
// lists of their own discipline, and the owning client reads and answers the exchange.
import { z } from 'zod';
import { IdSchema } from '../../domain/ids.js';
import { visibleGroups } from '../../domain/policies.js';
import { MESSAGE_MAX_LENGTH, RejectionReason } from '../../domain/requestMessages.js';
import { conflict, notFound } from '../../errors.js';
import { controlNumberOf, lastApprovedControlNumber, listDeskRequests } from '../../services/requests/desk.js';
import { listForRelease, listReleased } from '../../services/requests/lists.js';
import { listRequestMessages, postRequestMessage } from '../../services/requests/messages.js';
import { readRequestDetail } from '../../services/requests/read.js';
import { approveRequest, readRequestHead, rejectRequest, type DeskDeps } from '../../services/requests/transitions.js';
import { signedRelease } from '../../services/certificates/release.js';
import { SignaturePassword } from '../../domain/certificate.js';
import { parseInput } from '../../validation.js';
import type { AppDeps, AppRouter } from '../context.js';
import { requestsIn } from '../../services/readCache.js';
import { authorize, requireUser } from '../guards.js';
import { answerPage, pageAsked } from '../paging.js';
import { authorizeRequestRead, RequestIdParams } from './client.js';
import { cachedRead } from '../middleware/cachedRead.js';

/** Release is a signature (DESIGN.md section 10): the releasing staff member's password. */
const ReleaseInput = z.object({ password: SignaturePassword });

export const MessageInput = z.object({
  body: z.string('must be text').trim().min(1, 'type a message').max(MESSAGE_MAX_LENGTH, `use at most ${MESSAGE_MAX_LENGTH} characters`),
});

/** Reject's optional body: the reason the client is told. */
const RejectInput = z.object({
  reason: RejectionReason.optional(),
});

/** SPEC section 7's createresult payload; approval already created the result rows, so it only has to be well-formed. */
const CreateResultInput = z.object({
  testerId: IdSchema.optional(),
  testerUsername: z.string().max(254).nullish(),
  microbioTestResults: z.array(z.unknown()).max(0, 'must be empty').optional(),
  chemElisaTestResults: z.array(z.unknown()).max(0, 'must be empty').optional(),
  chemMicrobialTestResults: z.array(z.unknown()).max(0, 'must be empty').optional(),
  molBioTestResults: z.array(z.unknown()).max(0, 'must be empty').optional(),
});

export function deskRoutes(router: AppRouter, deps: AppDeps): void {
  const desk: DeskDeps = { db: deps.db, clock: deps.clock, labName: deps.config.labName, logger: deps.logger };

  router.get('/requests/pending', cachedRead(deps, requestsIn(['PENDING_REVIEW'])), async (ctx) => {
    authorize(ctx, 'request:review');
    ctx.body = await listDeskRequests(deps.db, { status: 'PENDING_REVIEW' });
  });

  router.get('/requests/pendingrequest/:requestId', async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    authorize(ctx, 'request:review');
    const detail = await readRequestDetail(deps.db, requestId);
    if (!detail) throw notFound(`There is no request ${requestId}.`);
    ctx.body = detail;
  });

  router.put('/requests/approve/:requestId', async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    const user = authorize(ctx, 'request:approve');
    const { controlNumber } = await approveRequest(desk, user, requestId, { ip: ctx.ip });
    ctx.body = { requestId, requestStatus: 'FOR_TESTING', controlNumber };
  });

  router.put('/requests/reject/:requestId', async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    const user = authorize(ctx, 'request:reject');
    const { reason } = parseInput(RejectInput, ctx.request.body ?? {});
    ctx.body = { requestId, ...(await rejectRequest(desk, user, requestId, { ip: ctx.ip }, reason || null)) };
  });

  router.put('/requests/approveRelease/:requestId', async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    const user = authorize(ctx, 'request:release');
    const { password } = parseInput(ReleaseInput, ctx.request.body ?? {});
    ctx.body = { requestId, ...(await signedRelease(desk, user, requestId, password, { ip: ctx.ip })) };
  });

  // Kept for the spec's call sequence: approval itself created the result rows, so this only confirms.
  router.post('/createresult/:requestId', async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    authorize(ctx, 'request:approve');
    parseInput(CreateResultInput, ctx.request.body ?? {});
    const head = await readRequestHead(deps.db, requestId);
    if (!head.controlNumber) throw conflict('The result record is created when the request is approved; approve it first.');
    ctx.body = { requestId, controlNumber: head.controlNumber, message: 'The result record of this request exists.' };
  });

  router.get('/requests/ctrlnumber/:requestId', async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    authorize(ctx, 'request:review');
    ctx.type = 'text/plain';
    ctx.body = await controlNumberOf(deps.db, requestId);
  });

  router.get('/requests/last-approved', async (ctx) => {
    const user = authorize(ctx, 'request:approve');
    ctx.type = 'text/plain';
    ctx.body = await lastApprovedControlNumber(deps.db, user.id);
  });

  // A work queue: the whole list unless a script asks for a page. Results are read per request (getResult).
  router.get('/requests/for-release', cachedRead(deps, requestsIn(['FOR_RELEASE'])), async (ctx) => {
    const groups = visibleGroups(authorize(ctx, 'request:list-for-release'));
    const asked = pageAsked(ctx, { paged: false });
    answerPage(ctx, asked, await listForRelease(deps.db, { groups, ...asked }));
  });

  // The laboratory's whole history: always paged.
  router.get('/requests/released', cachedRead(deps, requestsIn(['RELEASED'])), async (ctx) => {
    const groups = visibleGroups(authorize(ctx, 'request:list-for-release'));
    const asked = pageAsked(ctx, { paged: true });
    answerPage(ctx, asked, await listReleased(deps.db, { groups, ...asked }));
  });

  router.get('/requests/messages/:requestId', async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    await authorizeRequestRead(ctx, deps, requestId);
    ctx.body = await listRequestMessages(deps.db, requireUser(ctx), requestId);
  });

  router.post('/requests/messages/:requestId', async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    await authorizeRequestRead(ctx, deps, requestId);
    const { body } = parseInput(MessageInput, ctx.request.body ?? {});
    ctx.status = 201;
    ctx.body = await postRequestMessage(desk, requireUser(ctx), requestId, body, { ip: ctx.ip });
  });
}
