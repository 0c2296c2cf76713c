// The work queues and the client's track list, paged by keyset (GET requests/queue/...), beside the
// SPEC calls (requests/pending, requests/for-release, requests/for-testing, requests/clientrequest),
// which keep answering as SPEC says. A page is the JSON array of rows; while rows remain, a Link
// rel="next" carries the same query with the cursor of the page's last row. `format=csv` exports
// the whole filtered list (up to QUEUE_MAX_EXPORT rows) for a spreadsheet.
import { z } from 'zod';
import { IdSchema } from '../../domain/ids.js';
import {
  QUEUE_MAX_EXPORT,
  QUEUE_MAX_PAGE_SIZE,
  QUEUE_PAGE_SIZE,
  QUEUE_SORTS,
  QUEUE_STATUSES,
  QUEUES,
  queueCsv,
  WORK_STATES,
  type QueueName,
  type QueuePage,
} from '../../domain/queue.js';
import { badRequest } from '../../errors.js';
import { REQUEST_STATUSES } from '../../domain/requestStatus.js';
import { DISCIPLINES } from '../../domain/roles.js';
import { clientStatusCounts, listClientQueue, listQueue, type QueueInput } from '../../services/requests/queues.js';
import { parseInput } from '../../validation.js';
import type { AppContext, AppDeps, AppRouter } from '../context.js';
import { requireUser } from '../guards.js';
import { linkNextAfter } from '../paging.js';
import { decodeCursor, encodeCursor } from '../queueCursor.js';
import { cachedRead } from '../middleware/cachedRead.js';
import { ANY_DATA, requestsIn } from '../../services/readCache.js';
import { csv, json, route, type Reply, type RouteDoc } from '../route.js';
import { QueueRowBody, StatusCountsBody } from './bodies.js';

const SearchText = z.string('must be text').trim().max(100, 'use at most 100 characters').optional();

/** `limit` of a keyset-paged list (the queues, the turnaround dashboard). */
export const KeysetLimit = z.coerce
  .number('must be a number')
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(QUEUE_MAX_PAGE_SIZE, `must be at most ${QUEUE_MAX_PAGE_SIZE}`)
  .default(QUEUE_PAGE_SIZE);
/** `after`: the cursor of the page before, as a Link rel="next" carries it. */
export const KeysetAfter = z.string('must be a cursor').max(200, 'is not a cursor of this list').optional();

export const QueueQuery = z
  .strictObject({
    limit: KeysetLimit,
    after: KeysetAfter,
    q: SearchText,
    discipline: z.enum(DISCIPLINES, `must be one of ${DISCIPLINES.join(', ')}`).optional(),
    status: z.enum(REQUEST_STATUSES, `must be one of ${REQUEST_STATUSES.join(', ')}`).optional(),
    state: z.enum(WORK_STATES, `must be one of ${WORK_STATES.join(', ')}`).optional(),
    sort: z.enum(QUEUE_SORTS, `must be one of ${QUEUE_SORTS.join(', ')}`).default('oldest'),
    format: z.enum(['json', 'csv'], 'must be json or csv').default('json'),
  })
  .superRefine((query, ctx) => {
    if (query.after === undefined) return;
    const decoded = decodeCursor(query.after);
    if (!decoded) ctx.addIssue({ code: 'custom', path: ['after'], message: 'is not a cursor of this list' });
    else if (decoded.sort !== query.sort) ctx.addIssue({ code: 'custom', path: ['after'], message: `is a cursor of the ${decoded.sort} order, not ${query.sort}` });
  });

/** The track list's counts: of the requests the same search finds. */
export const CountsQuery = z.strictObject({ q: SearchText });

const QueueParams = z.object({ name: z.enum(QUEUES, `must be one of ${QUEUES.join(', ')}`) });
const ClientParams = z.object({ userId: IdSchema });

type Parsed = z.output<typeof QueueQuery>;

const QUEUE_PAGE: Reply[] = [json('A page of rows; Link rel="next" while rows remain.', z.array(QueueRowBody), { headers: ['Link'] }), csv('format=csv: the whole filtered list.')];
const CLIENT_COUNTS: RouteDoc = {
  method: 'get',
  path: '/requests/queue/client/:userId/counts',
  summary: "How many of a client's requests are in each status (of those a search finds, with q).",
  params: ClientParams,
  query: CountsQuery,
  responses: { 200: json('The count per status.', StatusCountsBody) },
  errors: [403],
};
const CLIENT_QUEUE: RouteDoc = {
  method: 'get',
  path: '/requests/queue/client/:userId',
  summary: "A client's own requests a keyset page at a time (Track My Request), with search, status filter and sorts.",
  params: ClientParams,
  query: QueueQuery,
  responses: { 200: QUEUE_PAGE },
  errors: [403],
};
const WORK_QUEUE: RouteDoc = {
  method: 'get',
  path: '/requests/queue/:name',
  summary: 'A work queue (pending, for-release, for-testing) a keyset page at a time, with search, filters, sorts and CSV export.',
  params: QueueParams,
  query: QueueQuery,
  responses: { 200: QUEUE_PAGE },
  errors: [403],
};

/** The query checked, with the statuses `list` holds (400 for a status it never holds). */
function queueInput(ctx: AppContext, list: QueueName | 'client'): { input: QueueInput; format: Parsed['format'] } {
  const { after, format, q, ...query } = parseInput(QueueQuery, ctx.query);
  if (query.status && !QUEUE_STATUSES[list].includes(query.status)) {
    throw badRequest(`status: must be one of ${QUEUE_STATUSES[list].join(', ')} on this list`);
  }
  if (query.state && list !== 'for-testing') throw badRequest('state: applies to the for-testing list only');
  const input: QueueInput = { ...query, q: q || undefined, after: after ? decodeCursor(after)!.cursor : undefined };
  if (format === 'csv') input.limit = QUEUE_MAX_EXPORT;
  return { input, format };
}

function answer(ctx: AppContext, list: string, input: QueueInput, format: Parsed['format'], page: QueuePage): void {
  if (format === 'csv') {
    ctx.type = 'text/csv; charset=utf-8';
    ctx.set('Content-Disposition', `attachment; filename="${list}.csv"`);
    ctx.body = queueCsv(page.rows);
    return;
  }
  if (page.next) linkNextAfter(ctx, encodeCursor(input.sort, page.next));
  ctx.body = page.rows;
}

export function queueRoutes(router: AppRouter, deps: AppDeps): void {
  const cached = cachedRead(deps);
  route(router, CLIENT_COUNTS, cached, async (ctx) => {
    const { userId } = parseInput(ClientParams, ctx.params);
    const { q } = parseInput(CountsQuery, ctx.query);
    ctx.body = await clientStatusCounts(deps.db, requireUser(ctx), userId, q || undefined);
  });

  route(router, CLIENT_QUEUE, cached, async (ctx) => {
    const { userId } = parseInput(ClientParams, ctx.params);
    const { input, format } = queueInput(ctx, 'client');
    answer(ctx, 'requests', input, format, await listClientQueue(deps.db, requireUser(ctx), userId, input));
  });

  // A work queue is computed again only when a request of its statuses changed.
  const queueKinds = (params: Record<string, string>) => {
    const name = params.name as QueueName;
    return QUEUES.includes(name) ? requestsIn(QUEUE_STATUSES[name]) : ANY_DATA;
  };
  route(router, WORK_QUEUE, cachedRead(deps, queueKinds), async (ctx) => {
    const { name } = parseInput(QueueParams, ctx.params);
    const { input, format } = queueInput(ctx, name);
    answer(ctx, name, input, format, await listQueue(deps.db, requireUser(ctx), name, input));
  });
}
