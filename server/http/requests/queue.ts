// The work queues and the client's track list, paged by keyset (GET requests/queue/...), beside the
// SPEC calls (requests/pending, requests/for-release, requests/for-testing, requests/clientrequest),
// which keep answering as SPEC says. A page is the JSON array of rows; while rows remain, a Link
// rel="next" carries the same query with the cursor of the page's last row. `format=csv` exports
// the whole filtered list for a spreadsheet, streamed in keyset chunks (server/http/csvExport.ts).
import { z } from 'zod';
import { AuditFilter } from '../../domain/auditTrail.js';
import { IdSchema } from '../../domain/ids.js';
import {
  LIST_SORTS,
  QUEUE_MAX_PAGE_SIZE,
  QUEUE_PAGE_SIZE,
  QUEUE_SORTS,
  QUEUE_STATUSES,
  QUEUES,
  WORK_STATES,
  type QueueName,
  type QueuePage,
} from '../../domain/queue.js';
import { badRequest } from '../../errors.js';
import { REQUEST_STATUSES } from '../../domain/requestStatus.js';
import { DISCIPLINES } from '../../domain/roles.js';
import { clientStatusCounts, listClientQueue, listQueue, queueCsvExport, type QueueInput } from '../../services/requests/queues.js';
import { parseInput } from '../../validation.js';
import type { AppContext, AppDeps, AppRouter } from '../context.js';
import { sendCsv } from '../csvExport.js';
import { requireUser } from '../guards.js';
import { linkNextAfter } from '../paging.js';
import { decodeCursor, encodeCursor } from '../queueCursor.js';
import { cachedRead } from '../middleware/cachedRead.js';
import { ANY_DATA, pageKinds, requestsIn } from '../../services/readCache.js';
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
    // Each list's own first sort when left out (LIST_SORTS).
    sort: z.enum(QUEUE_SORTS, `must be one of ${QUEUE_SORTS.join(', ')}`).optional(),
    since: AuditFilter.shape.since,
    until: AuditFilter.shape.until,
    format: z.enum(['json', 'csv'], 'must be json or csv').default('json'),
  })
  .superRefine((query, ctx) => {
    if (query.since && query.until && query.since > query.until) ctx.addIssue({ code: 'custom', path: ['until'], message: 'must not be before since' });
    if (query.after !== undefined && !decodeCursor(query.after)) ctx.addIssue({ code: 'custom', path: ['after'], message: 'is not a cursor of this list' });
  });

/** The track list's counts: of the requests the same search finds. */
export const CountsQuery = z.strictObject({ q: SearchText });

const QueueParams = z.object({ name: z.enum(QUEUES, `must be one of ${QUEUES.join(', ')}`) });
const ClientParams = z.object({ userId: IdSchema });

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
  summary: 'A work queue (pending, for-release, for-testing, released) a keyset page at a time, with search, filters, sorts and CSV export.',
  params: QueueParams,
  query: QueueQuery,
  responses: { 200: QUEUE_PAGE },
  errors: [403],
};

/** The query checked, with the statuses `list` holds (400 for a status it never holds). */
function queueInput(ctx: AppContext, list: QueueName | 'client'): { input: QueueInput; format: 'json' | 'csv' } {
  const { after, format, q, sort: asked, ...query } = parseInput(QueueQuery, ctx.query);
  if (query.status && !QUEUE_STATUSES[list].includes(query.status)) {
    throw badRequest(`status: must be one of ${QUEUE_STATUSES[list].join(', ')} on this list`);
  }
  if (query.state && list !== 'for-testing') throw badRequest('state: applies to the for-testing list only');
  const { sorts, first } = LIST_SORTS[list];
  const sort = asked ?? first;
  if (!sorts.includes(sort)) throw badRequest(`sort: must be one of ${sorts.join(', ')} on this list`);
  const cursor = after ? decodeCursor(after)! : undefined;
  if (cursor && cursor.sort !== sort) throw badRequest(`after: is a cursor of the ${cursor.sort} order, not ${sort}`);
  return { input: { ...query, sort, q: q || undefined, after: cursor?.cursor }, format };
}

/** A page of the list as JSON (answered with the page), or (format=csv) the whole filtered list streamed as `{list}.csv`. */
async function answer(ctx: AppContext, list: string, read: (input: QueueInput) => Promise<QueuePage>, { input, format }: ReturnType<typeof queueInput>): Promise<QueuePage | undefined> {
  if (format === 'csv') {
    sendCsv(ctx, `${list}.csv`, await queueCsvExport(read, input));
    return undefined;
  }
  const page = await read(input);
  if (page.next) linkNextAfter(ctx, encodeCursor(input.sort, page.next));
  ctx.body = page.rows;
  return page;
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
    await answer(ctx, 'requests', (input) => listClientQueue(deps.db, requireUser(ctx), userId, input), queueInput(ctx, 'client'));
  });

  // A work queue is computed again only when a request of its statuses changed.
  const queueKinds = (params: Record<string, string>) => {
    const name = params.name as QueueName;
    return QUEUES.includes(name) ? requestsIn(QUEUE_STATUSES[name]) : ANY_DATA;
  };
  route(router, WORK_QUEUE, cachedRead(deps, queueKinds), async (ctx) => {
    const { name } = parseInput(QueueParams, ctx.params);
    const query = queueInput(ctx, name);
    const page = await answer(ctx, name, (input) => listQueue(deps.db, requireUser(ctx), name, input), query);
    // A page that ends before the recent work is kept while that work goes on (pageKinds).
    const versions = page && (await ctx.state.reads?.versions());
    if (versions) ctx.state.cacheKinds = pageKinds(QUEUE_STATUSES[name], { sort: query.input.sort, followingKey: page.followingKey }, versions);
  });
}
