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
import { PageQuery, PagedQuery } from '../../domain/paging.js';
import { json, route, text, type Reply, type RouteDoc } from '../route.js';
import {
  ApprovedBody,
  ForReleaseRowBody,
  RejectedBody,
  ReleasedBody,
  ReleasedRowBody,
  RequestDetailBody,
  RequestMessageBody,
  RequestViewBody,
  ResultRecordBody,
} from './bodies.js';

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

const page = (description: string, row: z.ZodType): Reply => json(description, z.array(row), { headers: ['X-Total-Count', 'Link'] });
const byId = { params: RequestIdParams };

const PENDING: RouteDoc = { method: 'get', path: '/requests/pending', summary: 'Requests pending review (desk).', responses: { 200: json('The requests, oldest first.', z.array(RequestViewBody)) }, errors: [403] };
const PENDING_ONE: RouteDoc = {
  method: 'get',
  path: '/requests/pendingrequest/:requestId',
  summary: 'One request pending review with its samples (desk).',
  ...byId,
  responses: { 200: json('The request.', RequestDetailBody) },
  errors: [403, 404],
};
const APPROVE: RouteDoc = {
  method: 'put',
  path: '/requests/approve/:requestId',
  summary: 'Approves: next control number, analyses planned, client e-mailed (desk).',
  ...byId,
  responses: { 200: json('Approved.', ApprovedBody) },
  errors: [403, 404, 409],
};
const REJECT: RouteDoc = {
  method: 'put',
  path: '/requests/reject/:requestId',
  summary: 'Rejects a request pending review or for release, with an optional reason; client e-mailed (desk).',
  ...byId,
  body: RejectInput,
  responses: { 200: json('Rejected.', RejectedBody) },
  errors: [403, 404, 409],
};
const RELEASE: RouteDoc = {
  method: 'put',
  path: '/requests/approveRelease/:requestId',
  summary: "Releases the results, signed with the staff member's password; issues the certificate and e-mails the client (desk).",
  ...byId,
  body: ReleaseInput,
  responses: { 200: json('Released; the report issued.', ReleasedBody) },
  errors: [403, 404, 409, 429],
};
const CREATE_RESULT: RouteDoc = {
  method: 'post',
  path: '/createresult/:requestId',
  summary: 'Compatibility call of SPEC section 7; approval already created the result rows (desk).',
  ...byId,
  body: CreateResultInput,
  responses: { 200: json('The result record exists.', ResultRecordBody) },
  errors: [403, 404, 409],
};
const CONTROL_NUMBER: RouteDoc = {
  method: 'get',
  path: '/requests/ctrlnumber/:requestId',
  summary: 'The control number of a request as text (desk).',
  ...byId,
  responses: { 200: text('The control number.', '2026-0007') },
  errors: [403, 404, 409],
};
const LAST_APPROVED: RouteDoc = {
  method: 'get',
  path: '/requests/last-approved',
  summary: 'The last control number given (desk).',
  responses: { 200: text('The control number.', '2026-0007') },
  errors: [403, 404],
};
const FOR_RELEASE: RouteDoc = {
  method: 'get',
  path: '/requests/for-release',
  summary: 'Requests whose results are complete (desk; testers for their discipline): the whole list unless limit/offset ask for a page.',
  query: PageQuery,
  responses: { 200: page('The rows.', ForReleaseRowBody) },
  errors: [403],
};
const RELEASED_LIST: RouteDoc = {
  method: 'get',
  path: '/requests/released',
  summary: 'Released requests, newest release first, a page at a time (desk; testers for their discipline).',
  query: PagedQuery,
  responses: { 200: page('The rows.', ReleasedRowBody) },
  errors: [403],
};
const MESSAGES: RouteDoc = {
  method: 'get',
  path: '/requests/messages/:requestId',
  summary: 'The additional-information exchange about a request (desk and owning client).',
  ...byId,
  responses: { 200: json('The messages, oldest first.', z.array(RequestMessageBody)) },
  errors: [403, 404],
};
const POST_MESSAGE: RouteDoc = {
  method: 'post',
  path: '/requests/messages/:requestId',
  summary: 'Asks (desk) or answers (owning client) for additional information.',
  ...byId,
  body: MessageInput,
  responses: { 201: json('The message as stored.', RequestMessageBody) },
  errors: [403, 404, 409],
};

export function deskRoutes(router: AppRouter, deps: AppDeps): void {
  const desk: DeskDeps = { db: deps.db, clock: deps.clock, labName: deps.config.labName, logger: deps.logger };

  route(router, PENDING, cachedRead(deps, requestsIn(['PENDING_REVIEW'])), async (ctx) => {
    authorize(ctx, 'request:review');
    ctx.body = await listDeskRequests(deps.db, { status: 'PENDING_REVIEW' });
  });

  route(router, PENDING_ONE, async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    authorize(ctx, 'request:review');
    const detail = await readRequestDetail(deps.db, requestId);
    if (!detail) throw notFound(`There is no request ${requestId}.`);
    ctx.body = detail;
  });

  route(router, APPROVE, async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    const user = authorize(ctx, 'request:approve');
    const { controlNumber } = await approveRequest(desk, user, requestId, { ip: ctx.ip });
    ctx.body = { requestId, requestStatus: 'FOR_TESTING', controlNumber };
  });

  route(router, REJECT, async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    const user = authorize(ctx, 'request:reject');
    const { reason } = parseInput(RejectInput, ctx.request.body ?? {});
    ctx.body = { requestId, ...(await rejectRequest(desk, user, requestId, { ip: ctx.ip }, reason || null)) };
  });

  route(router, RELEASE, async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    const user = authorize(ctx, 'request:release');
    const { password } = parseInput(ReleaseInput, ctx.request.body ?? {});
    ctx.body = { requestId, ...(await signedRelease(desk, user, requestId, password, { ip: ctx.ip })) };
  });

  // Kept for the spec's call sequence: approval itself created the result rows, so this only confirms.
  route(router, CREATE_RESULT, async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    authorize(ctx, 'request:approve');
    parseInput(CreateResultInput, ctx.request.body ?? {});
    const head = await readRequestHead(deps.db, requestId);
    if (!head.controlNumber) throw conflict('The result record is created when the request is approved; approve it first.');
    ctx.body = { requestId, controlNumber: head.controlNumber, message: 'The result record of this request exists.' };
  });

  route(router, CONTROL_NUMBER, async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    authorize(ctx, 'request:review');
    ctx.type = 'text/plain';
    ctx.body = await controlNumberOf(deps.db, requestId);
  });

  route(router, LAST_APPROVED, async (ctx) => {
    const user = authorize(ctx, 'request:approve');
    ctx.type = 'text/plain';
    ctx.body = await lastApprovedControlNumber(deps.db, user.id);
  });

  // A work queue: the whole list unless a script asks for a page. Results are read per request (getResult).
  route(router, FOR_RELEASE, cachedRead(deps, requestsIn(['FOR_RELEASE'])), async (ctx) => {
    const groups = visibleGroups(authorize(ctx, 'request:list-for-release'));
    const asked = pageAsked(ctx, { paged: false });
    answerPage(ctx, asked, await listForRelease(deps.db, { groups, ...asked }));
  });

  // The laboratory's whole history: always paged.
  route(router, RELEASED_LIST, cachedRead(deps, requestsIn(['RELEASED'])), async (ctx) => {
    const groups = visibleGroups(authorize(ctx, 'request:list-for-release'));
    const asked = pageAsked(ctx, { paged: true });
    answerPage(ctx, asked, await listReleased(deps.db, { groups, ...asked }));
  });

  route(router, MESSAGES, async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    await authorizeRequestRead(ctx, deps, requestId);
    ctx.body = await listRequestMessages(deps.db, requireUser(ctx), requestId);
  });

  route(router, POST_MESSAGE, async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    await authorizeRequestRead(ctx, deps, requestId);
    const { body } = parseInput(MessageInput, ctx.request.body ?? {});
    ctx.status = 201;
    ctx.body = await postRequestMessage(desk, requireUser(ctx), requestId, body, { ip: ctx.ip });
  });
}
