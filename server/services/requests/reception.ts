// Sample reception (issue 15): staff record, once per request, when and how its samples arrived.
// Only between approval and a final status; audited with the whole receipt.
import type { Knex } from 'knex';
import { isoNow } from '../../clock.js';
import { isUniqueViolation } from '../../db/errors.js';
import { inTransaction } from '../../db/transaction.js';
import { can, type Actor } from '../../domain/policies.js';
import { receiptFlags, type Receipt, type ReceiptCondition, type ReceiptInput } from '../../domain/reception.js';
import { acceptsResults, STATUS_DISPLAY } from '../../domain/requestStatus.js';
import { conflict, forbidden } from '../../errors.js';
import { recordAudit } from '../audit.js';
import { readRequestHead, type AuditMeta, type DeskDeps } from './transitions.js';

type Db = Knex | Knex.Transaction;

/** The receipt columns (as `rc`) and the receiver's name (as `rcu`), for joins from other lists. */
export const RECEIPT_COLUMNS = [
  'rc.request_id as receipt_request_id', 'rc.received_at', 'rc.received_by', 'rc.containers', 'rc.condition', 'rc.reason',
  'rc.temperature_c', 'rc.recorded_at', 'rcu.first_name as receiver_first_name', 'rcu.last_name as receiver_last_name',
];

export interface ReceiptColumns {
  receipt_request_id: number | null;
  received_at: string;
  received_by: number;
  containers: number;
  condition: string;
  reason: string | null;
  temperature_c: number | string | null;
  recorded_at: string;
  receiver_first_name: string;
  receiver_last_name: string;
}

/** Joins a request query (`requestAlias.id`) with its receipt, if any. */
export function joinReceipt(query: Knex.QueryBuilder, requestAlias: string): Knex.QueryBuilder {
  return query.leftJoin('sample_receipts as rc', 'rc.request_id', `${requestAlias}.id`).leftJoin('users as rcu', 'rcu.id', 'rc.received_by');
}

/** The receipt of a joined row, or null when the samples have not been received. */
export function receiptOf(row: ReceiptColumns): Receipt | null {
  if (row.receipt_request_id === null || row.receipt_request_id === undefined) return null;
  const condition = row.condition as ReceiptCondition;
  const temperatureC = row.temperature_c === null ? null : Number(row.temperature_c);
  return {
    requestId: Number(row.receipt_request_id),
    receivedAt: row.received_at,
    receivedBy: Number(row.received_by),
    receivedByName: `${row.receiver_first_name} ${row.receiver_last_name}`,
    containers: Number(row.containers),
    condition,
    reason: row.reason,
    temperatureC,
    ...receiptFlags({ condition, temperatureC }),
    recordedAt: row.recorded_at,
  };
}

/** The receipt of one request (null when not received yet); the caller has checked the reader. */
export async function findReceipt(db: Db, requestId: number): Promise<Receipt | null> {
  const row = await joinReceipt(db('requests as r').where('r.id', requestId), 'r').first(...RECEIPT_COLUMNS);
  return row ? receiptOf(row) : null;
}

/**
 * Records the arrival of a request's samples, received by `actor` (staff or admin): 403 for others,
 * 404 without the request, 409 before approval, once final, or when already received.
 */
export async function recordReceipt(deps: Pick<DeskDeps, 'db' | 'clock'>, actor: Actor, requestId: number, input: ReceiptInput, meta: AuditMeta = {}): Promise<Receipt> {
  if (!can(actor, 'request:receive')) throw forbidden();
  await inTransaction(deps.db, async (trx) => {
    const head = await readRequestHead(trx, requestId);
    if (!acceptsResults(head.status)) {
      throw conflict(`Samples are received after approval and before release; this request is ${STATUS_DISPLAY[head.status]}.`);
    }
    const row = {
      request_id: requestId,
      received_at: new Date(input.receivedAt).toISOString(),
      received_by: actor.id,
      containers: input.containers,
      condition: input.condition,
      reason: input.condition === 'not-acceptable' ? input.reason : input.reason || null,
      temperature_c: input.temperatureC ?? null,
      recorded_at: isoNow(deps.clock),
    };
    try {
      await trx('sample_receipts').insert(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(`The samples of request ${head.controlNumber ?? requestId} have already been received.`);
      throw err;
    }
    const after = { receivedAt: row.received_at, containers: row.containers, condition: row.condition, reason: row.reason, temperatureC: row.temperature_c };
    await recordAudit(trx, deps.clock, { actorUserId: actor.id, action: 'request.receive', requestId, details: { after }, ip: meta.ip });
  });
  return (await findReceipt(deps.db, requestId))!;
}
