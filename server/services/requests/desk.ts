// The receive-and-release desk's reads: requests in the "as read" shape (the pending list and
// `labctl requests list`) and control numbers.
import type { Knex } from 'knex';
import type { RequestStatus } from '../../domain/requestStatus.js';
import { notFound } from '../../errors.js';
import type { PageRequest } from './lists.js';
import { listRequests, type RequestView } from './read.js';

export interface ListOptions extends PageRequest {
  /** Only requests in this status (all statuses when left out). */
  status?: RequestStatus;
}

/**
 * Requests in the "as read" shape, oldest submission first, e.g. `{ status: 'PENDING_REVIEW' }` for
 * the pending list. The work lists (released, for release, for testing) are in ./lists.ts.
 */
export function listDeskRequests(db: Knex, options: ListOptions = {}): Promise<RequestView[]> {
  return listRequests(db, (q) => {
    if (options.status) q.where('requests.status', options.status);
    if (options.limit !== undefined) q.limit(options.limit);
    if (options.offset) q.offset(options.offset);
    return q.orderBy([{ column: 'requests.submission_date' }, { column: 'requests.id' }]);
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
