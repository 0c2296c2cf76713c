// The receive-and-release desk's lists: pending requests, requests awaiting release with their results
// and per-family completion, released requests, control numbers. Each list costs a fixed number of
// queries. Used by the API and by `labctl requests list`.
import type { Knex } from 'knex';
import { analytesOfGroup, catalogOrder, type Group } from '../../domain/catalog.js';
import { completionOf, type RequestWithResults } from '../../domain/completion.js';
import type { RequestStatus } from '../../domain/requestStatus.js';
import { notFound } from '../../errors.js';
import type { AnalysisRecord } from '../../domain/resultShape.js';
import { analysesOf } from '../results/read.js';
import { listRequests, withSamples, type RequestView } from './read.js';

export interface ListOptions {
  /** Only requests in this status (all statuses when left out). */
  status?: RequestStatus;
  /** Only requests with at least one test of these groups (a tester's discipline). */
  groups?: readonly Group[];
  /** Order: oldest submission first (default), or most recent release first. */
  order?: 'submitted' | 'released';
}

function chooser(db: Knex, options: ListOptions) {
  return (q: Knex.QueryBuilder) => {
    if (options.status) q.where('requests.status', options.status);
    if (options.groups) {
      const codes = options.groups.flatMap((g) => analytesOfGroup(g).map((a) => a.code));
      q.whereExists(
        db('request_tests').select(db.raw('1')).whereRaw('request_tests.request_id = requests.id').whereIn('request_tests.test_code', codes),
      );
    }
    return options.order === 'released'
      ? q.orderBy([{ column: 'requests.released_at', order: 'desc' }, { column: 'requests.id', order: 'desc' }])
      : q.orderBy([{ column: 'requests.submission_date' }, { column: 'requests.id' }]);
  };
}

/** Requests in the "as read" shape, e.g. `{ status: 'PENDING_REVIEW' }` for the pending list (oldest first). */
export function listDeskRequests(db: Knex, options: ListOptions = {}): Promise<RequestView[]> {
  return listRequests(db, chooser(db, options));
}

/**
 * Requests with their samples, their per-family and per-group completion and their results (by
 * sample, in catalog order): a fixed number of queries whatever the number of requests. With
 * `groups`, the results listed are those of these groups only (a tester reads its own discipline's).
 */
export async function listRequestsWithResults(db: Knex, options: ListOptions): Promise<RequestWithResults[]> {
  const requests = await withSamples(db, await listDeskRequests(db, options));
  const byRequest = new Map<number, AnalysisRecord[]>(requests.map((r) => [r.requestId, []]));
  for (const a of await analysesOf(db, requests.map((r) => r.requestId))) byRequest.get(a.requestId)?.push(a);
  return requests.map((request) => {
    const all = (byRequest.get(request.requestId) ?? []).sort(
      (a, b) => a.samplePosition - b.samplePosition || catalogOrder(a.testCode) - catalogOrder(b.testCode),
    );
    const results = options.groups ? all.filter((a) => options.groups!.includes(a.group)) : all;
    return { ...request, ...completionOf(all), results };
  });
}

/** The control number of a request; 404 when the request does not exist or is not approved yet. */
export async function controlNumberOf(db: Knex, requestId: number): Promise<string> {
  const row = await db('requests').where('id', requestId).first('control_number');
  if (!row) throw notFound(`There is no request ${requestId}.`);
  if (!row.control_number) throw notFound(`Request ${requestId} has no control number yet: it has not been approved.`);
  return row.control_number;
}

/** The control number of the request `staffUserId` approved last (DESIGN.md section 10). */
export async function lastApprovedControlNumber(db: Knex, staffUserId: number): Promise<string> {
  const row = await db('requests')
    .where('approved_by', staffUserId)
    .whereNotNull('control_number')
    .orderBy([{ column: 'approved_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .first('control_number');
  if (!row) throw notFound('You have not approved any request yet.');
  return row.control_number;
}
