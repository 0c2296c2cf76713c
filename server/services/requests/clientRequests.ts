// Reads behind the client screens: the track list and the owner of a request (for access checks).
import type { Knex } from 'knex';
import type { ClientRequestRow } from '../../domain/requestShape.js';
import type { RequestStatus } from '../../domain/requestStatus.js';

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
export async function requestOwner(db: Knex | Knex.Transaction, requestId: number): Promise<number | undefined> {
  const row = await db('requests').where('id', requestId).first('client_user_id');
  return row ? Number(row.client_user_id) : undefined;
}
