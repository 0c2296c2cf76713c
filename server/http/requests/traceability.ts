// Traceability calls of issue 15: sample reception, the receipt as the client reads it, printable
// labels, a request's timeline and the turnaround dashboard (a keyset page of the open requests at a
// time, issue 22: X-Total-Count and Link rel="next" as the work queues give them).
import { z } from 'zod';
import { ReceiptInput } from '../../domain/reception.js';
import { AuditFilter } from '../../domain/auditTrail.js';
import { DISCIPLINES } from '../../domain/roles.js';
import { CHART_MAX_DAYS, chartableRange, chartWindow, OPEN_REQUEST_STATUSES, type UrgencyCursor } from '../../domain/turnaround.js';
import { sampleLabels } from '../../services/requests/labels.js';
import { findReceipt, recordReceipt } from '../../services/requests/reception.js';
import { requestTimeline } from '../../services/requests/timeline.js';
import { turnaround, turnaroundCsvExport, turnaroundWeeks } from '../../services/requests/turnaround.js';
import { badRequest } from '../../errors.js';
import { parseInput } from '../../validation.js';
import type { AppDeps, AppRouter } from '../context.js';
import { sendCsv } from '../csvExport.js';
import { authorize, requireUser } from '../guards.js';
import { cachedRead } from '../middleware/cachedRead.js';
import { linkNextAfter } from '../paging.js';
import { decodeKeyset, encodeKeyset } from '../queueCursor.js';
import { requestsIn } from '../../services/readCache.js';
import { authorizeRequestRead, RequestIdParams } from './client.js';
import { KeysetAfter, KeysetLimit } from './queue.js';
import { csv, json, pdf, route, type RouteDoc } from '../route.js';
import { ReceiptAnswerBody, ReceiptBody, TimelineBody, TurnaroundBody, TurnaroundWeeksBody } from './bodies.js';

const URGENCY = 'urgency';

/** The list's and the chart's filters: a discipline and days of submission (UTC, inclusive). */
const TurnaroundFilterQuery = {
  discipline: z.enum(DISCIPLINES, `must be one of ${DISCIPLINES.join(', ')}`).optional(),
  since: AuditFilter.shape.since,
  until: AuditFilter.shape.until,
};

export const TurnaroundWeeksQuery = z.strictObject(TurnaroundFilterQuery);

export const TurnaroundQuery = z.strictObject({
  limit: KeysetLimit,
  after: KeysetAfter.transform((text, ctx): UrgencyCursor | undefined => {
    if (text === undefined) return undefined;
    const decoded = decodeKeyset(text, 2);
    if (decoded?.order === URGENCY) return { dueKey: decoded.keys[0], submissionDate: decoded.keys[1], id: decoded.id };
    ctx.addIssue({ code: 'custom', message: 'is not a cursor of this list' });
    return z.NEVER;
  }),
  ...TurnaroundFilterQuery,
  // Only the open requests past their due date.
  late: z.enum(['true', 'false'], 'must be true or false').transform((text) => text === 'true').optional(),
  // csv: every open request the filter lists in urgency order, streamed (not the page).
  format: z.enum(['json', 'csv'], 'must be json or csv').default('json'),
});

const RECEIVE: RouteDoc = {
  method: 'post',
  path: '/requests/receive/:requestId',
  summary: 'Records the reception of an approved request’s samples (desk).',
  params: RequestIdParams,
  body: ReceiptInput,
  responses: { 201: json('The receipt.', ReceiptBody) },
  errors: [403, 404, 409],
};
const RECEIPT: RouteDoc = {
  method: 'get',
  path: '/requests/receipt/:requestId',
  summary: 'How the samples of a request arrived (the desk and the owning client).',
  params: RequestIdParams,
  responses: { 200: json('The receipt, null until received.', ReceiptAnswerBody) },
  errors: [403, 404],
};
const LABELS: RouteDoc = {
  method: 'get',
  path: '/requests/labels/:requestId',
  summary: 'The sample labels of an approved request as a PDF (desk).',
  params: RequestIdParams,
  responses: { 200: pdf('The labels.') },
  errors: [403, 404, 409],
};
const TIMELINE: RouteDoc = {
  method: 'get',
  path: '/requests/timeline/:requestId',
  summary: 'Every event of a request in order (the owning client without lab-only entries).',
  params: RequestIdParams,
  responses: { 200: json('The events.', TimelineBody) },
  errors: [403, 404],
};
const TURNAROUND: RouteDoc = {
  method: 'get',
  path: '/requests/turnaround',
  summary: 'The open requests per discipline, and a keyset page of them (filtered by discipline, days of submission, late only) by age and due date, late ones first, with X-Total-Count and Link rel="next"; ?format=csv downloads every open request the filter lists in that order (desk).',
  query: TurnaroundQuery,
  responses: { 200: [json('The figures and a page of requests.', TurnaroundBody, { headers: ['X-Total-Count', 'Link'] }), csv('format=csv: every open request, streamed.')] },
  errors: [403],
};

const TURNAROUND_WEEKS: RouteDoc = {
  method: 'get',
  path: '/requests/turnaround/weeks',
  summary: 'Per discipline and week of submission, how many requests were released on time, are late (released after their due date, or open past it) and are open; filtered by discipline and days of submission, else the last 12 weeks, at most 366 days (desk).',
  query: TurnaroundWeeksQuery,
  responses: { 200: json('The chart.', TurnaroundWeeksBody) },
  errors: [403],
};

/** The day of the figures, and a range of days checked: since not after until. */
function dayAndRange(deps: AppDeps, filter: { since?: string; until?: string }): string {
  if (filter.since && filter.until && filter.since > filter.until) throw badRequest('until: must not be before since');
  return deps.clock.now().toISOString().slice(0, 10);
}

export function traceabilityRoutes(router: AppRouter, deps: AppDeps): void {
  route(router, RECEIVE, async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    const user = authorize(ctx, 'request:receive');
    const input = parseInput(ReceiptInput, ctx.request.body ?? {});
    ctx.status = 201;
    ctx.body = await recordReceipt(deps, user, requestId, input, { ip: ctx.ip });
  });

  route(router, RECEIPT, async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    await authorizeRequestRead(ctx, deps, requestId);
    ctx.body = { receipt: await findReceipt(deps.db, requestId) };
  });

  route(router, LABELS, async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    authorize(ctx, 'request:receive');
    const { controlNumber, pdf } = await sampleLabels(deps.db, requestId, deps.config.labShortName);
    ctx.type = 'application/pdf';
    ctx.attachment(`labels-${controlNumber}.pdf`, { type: 'inline' });
    ctx.body = pdf;
  });

  route(router, TIMELINE, async (ctx) => {
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    await authorizeRequestRead(ctx, deps, requestId);
    ctx.body = await requestTimeline(deps.db, requireUser(ctx), requestId);
  });

  // Computed again only when an open request changed (the day is part of every cached answer's key).
  route(router, TURNAROUND, cachedRead(deps, requestsIn(OPEN_REQUEST_STATUSES)), async (ctx) => {
    const user = authorize(ctx, 'request:review');
    const { format, ...page } = parseInput(TurnaroundQuery, ctx.query);
    const today = dayAndRange(deps, page);
    if (format === 'csv') return sendCsv(ctx, `turnaround-${today}.csv`, turnaroundCsvExport(deps.db, user, today, page));
    const { turnaround: body, total, next } = await turnaround(deps.db, user, today, page);
    ctx.set('X-Total-Count', String(total));
    if (next) linkNextAfter(ctx, encodeKeyset(URGENCY, [next.dueKey, next.submissionDate], next.id));
    ctx.body = body;
  });

  // As the dashboard, computed again only when an open request changed (a release or a rejection
  // is a change of an open request), per day.
  route(router, TURNAROUND_WEEKS, cachedRead(deps, requestsIn(OPEN_REQUEST_STATUSES)), async (ctx) => {
    const user = authorize(ctx, 'request:review');
    const filter = parseInput(TurnaroundWeeksQuery, ctx.query);
    const today = dayAndRange(deps, filter);
    const window = chartWindow(today, filter);
    if (!chartableRange(window.since, window.until)) throw badRequest(`since: the days charted span at most ${CHART_MAX_DAYS} days (${window.since} to ${window.until})`);
    ctx.body = await turnaroundWeeks(deps.db, user, today, filter);
  });
}
