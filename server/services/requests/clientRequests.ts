// Reads behind the client screens: the track list, and who may read a request.
import type { Knex } from 'knex';
import { can, hidesMissing, type Actor } from '../../domain/policies.js';
import type { ClientRequestRow } from '../../domain/requestShape.js';
import type { RequestStatus } from '../../domain/requestStatus.js';
import { forbidden, notFound } from '../../errors.js';
import { requestConformity } from '../../db/conformity.js';
import type { RequestDetail } from '../../domain/requestShape.js';
import type { Outcome } from '../../domain/specifications.js';
import { readRequestDetail } from './read.js';

/** A client's requests, newest first (one query on the (client, submission date) index). */
export async function listClientRequests(db: Knex | Knex.Transaction, clientUserId: number): Promise<ClientRequestRow[]> {
  const rows = await db('requests')
    .where('client_user_id', clientUserId)
    .orderBy([{ column: 'submission_date', order: 'desc' }, { column: 'id', order: 'desc' }])
    .select('id', 'control_number', 'submission_date', 'status');
  return rows.map((r) => ({
    requestId: Number(r.id),
    controlNumber: r.control_number,
    submissionDate: r.submission_date,
    requestStatus: r.status as RequestStatus,
  }));
}

/** The client user id owning a request, or undefined when there is no such request. */
async function requestOwner(db: Knex | Knex.Transaction, requestId: number): Promise<number | undefined> {
  const row = await db('requests').where('id', requestId).first('client_user_id');
  return row ? Number(row.client_user_id) : undefined;
}

/**
 * Checks that `actor` may read request `requestId`: 403 for a request not theirs; for a missing one 404,
 * or 403 for a client, whether or not it exists, so ids cannot be probed.
 */
export async function assertRequestReadable(db: Knex | Knex.Transaction, actor: Actor, requestId: number): Promise<void> {
  const owner = await requestOwner(db, requestId);
  if (owner === undefined) throw hidesMissing(actor) ? forbidden() : notFound('There is no request with this id.');
  if (!can(actor, 'request:read', { clientUserId: owner })) throw forbidden();
}

/**
 * Request `requestId` as the detail call answers it for `actor`, with its conformity (issue 26): the
 * desk reads it at any time, the client once the results are released.
 */
export async function readRequestDetailFor(db: Knex, actor: Actor, requestId: number): Promise<RequestDetail & { conformity: Outcome | null }> {
  await assertRequestReadable(db, actor, requestId);
  const detail = (await readRequestDetail(db, requestId))!;
  const shown = actor.role !== 'client' || detail.requestStatus === 'RELEASED';
  return { ...detail, conformity: shown ? await requestConformity(db, requestId) : null };
}
