// The staff transitions of DESIGN.md section 5: approve, reject, release. Each runs in one
// transaction whose status check is a guarded update (`where status = <the status read>`), so two
// concurrent transitions of the same request cannot both succeed, on SQLite or PostgreSQL, on one
// server instance or several. The client is e-mailed after the commit; a mail failure is logged and
// never undoes the transition. Used by the API and by `labctl requests approve|reject|release`.
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { isoNow } from '../../clock.js';
import { inTransaction } from '../../db/transaction.js';
import { can, type Action, type Actor } from '../../domain/policies.js';
import { formatControlNumber, plannedAnalyses } from '../../domain/requestShape.js';
import { applyTransition, type RequestStatus, type Transition } from '../../domain/requestStatus.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { Mailer } from '../../mail/mailer.js';
import { approvalMail, rejectionMail, releaseMail, sendQuietly, type MailRequest } from '../../mail/requestMails.js';
import { recordAudit } from '../audit.js';

export interface DeskDeps {
  db: Knex;
  clock: Clock;
  mailer: Mailer;
  labName: string;
  logger?: Logger;
}

/** Where a change came from, for the audit log (the API passes the caller's IP; the CLI nothing). */
export interface AuditMeta {
  ip?: string | null;
}

/** The few columns a transition reads and a mail needs. */
export interface RequestHead extends MailRequest {
  status: RequestStatus;
  clientUserId: number;
}

/** Reads the head of a request; 404 when there is none. */
export async function readRequestHead(db: Knex | Knex.Transaction, requestId: number): Promise<RequestHead> {
  const row = await db('requests')
    .where('id', requestId)
    .first('id', 'status', 'client_user_id', 'control_number', 'submission_date', 'email_address');
  if (!row) throw notFound(`There is no request ${requestId}.`);
  return {
    requestId: Number(row.id),
    status: row.status as RequestStatus,
    clientUserId: Number(row.client_user_id),
    controlNumber: row.control_number,
    submissionDate: row.submission_date,
    emailAddress: row.email_address,
  };
}

const ACTIONS: Record<Transition, Action> = { approve: 'request:approve', reject: 'request:reject', release: 'request:release' };
const STAMPS: Record<Transition, { by: string; at: string }> = {
  approve: { by: 'approved_by', at: 'approved_at' },
  reject: { by: 'rejected_by', at: 'rejected_at' },
  release: { by: 'released_by', at: 'released_at' },
};

/**
 * Moves the request, stamps who and when, lets `then` do the transition's own work in the same
 * transaction, and records the audit entry. Answers 403 / 404 / 409 (with the status machine's reason).
 */
async function runTransition(
  deps: DeskDeps,
  actor: Actor,
  requestId: number,
  transition: Transition,
  meta: AuditMeta,
  then: (trx: Knex.Transaction, head: RequestHead) => Promise<Partial<RequestHead>> = async () => ({}),
): Promise<RequestHead> {
  if (!can(actor, ACTIONS[transition])) throw forbidden();
  return inTransaction(deps.db, async (trx) => {
    const head = await readRequestHead(trx, requestId);
    const check = applyTransition(head.status, transition);
    if (!check.ok) throw conflict(check.reason);
    const now = isoNow(deps.clock);
    const { by, at } = STAMPS[transition];
    // The guarded update is the real check: it waits for a concurrent transition of the same row and
    // then finds the status changed.
    const moved = await trx('requests')
      .where({ id: requestId, status: head.status })
      .update({ status: check.to, [by]: actor.id, [at]: now, updated_at: now });
    if (moved === 0) {
      const fresh = applyTransition((await readRequestHead(trx, requestId)).status, transition);
      throw conflict(fresh.ok ? 'The request changed meanwhile. Please try again.' : fresh.reason);
    }
    const changes = await then(trx, head);
    await recordAudit(trx, deps.clock, {
      actorUserId: actor.id,
      action: `request.${transition}`,
      requestId,
      details: { before: { status: head.status }, after: { status: check.to, ...changes } },
      ip: meta.ip,
    });
    return { ...head, ...changes, status: check.to };
  });
}

/**
 * Takes the next control number of `year`: one atomic upsert on the year's counter row, so
 * concurrent approvals (even on several instances sharing PostgreSQL) queue on that row and get
 * consecutive numbers; a rolled-back approval gives its number back.
 */
async function nextControlNumber(trx: Knex.Transaction, year: number): Promise<string> {
  const [row] = await trx('control_number_counters')
    .insert({ year, last_value: 1 })
    .onConflict('year')
    .merge({ last_value: trx.raw('?? + 1', ['control_number_counters.last_value']) })
    .returning('last_value');
  return formatControlNumber(year, Number(typeof row === 'object' ? row.last_value : row));
}

/** Plans one analysis per sample and ticked test (one multi-row insert). */
async function createAnalyses(trx: Knex.Transaction, requestId: number): Promise<void> {
  const samples = await trx('samples').where('request_id', requestId).orderBy('position').pluck('id');
  const tests = await trx('request_tests').where('request_id', requestId).pluck('test_code');
  const rows = plannedAnalyses(samples.map(Number), tests).map((a) => ({
    request_id: requestId,
    sample_id: a.sampleId,
    test_code: a.testCode,
    family: a.family,
    result_group: a.group,
  }));
  if (rows.length > 0) await trx.batchInsert('analyses', rows, 500);
}

/** PENDING_REVIEW -> FOR_TESTING with the next control number of the year and the analyses to do. */
export async function approveRequest(deps: DeskDeps, actor: Actor, requestId: number, meta: AuditMeta = {}): Promise<{ controlNumber: string }> {
  const approved = await runTransition(deps, actor, requestId, 'approve', meta, async (trx) => {
    const controlNumber = await nextControlNumber(trx, deps.clock.now().getUTCFullYear());
    await trx('requests').where('id', requestId).update({ control_number: controlNumber });
    await createAnalyses(trx, requestId);
    return { controlNumber };
  });
  const controlNumber = approved.controlNumber!;
  await sendQuietly(deps, approvalMail({ ...approved, controlNumber }, deps.labName));
  return { controlNumber };
}

/** PENDING_REVIEW or FOR_RELEASE -> REJECTED. */
export async function rejectRequest(deps: DeskDeps, actor: Actor, requestId: number, meta: AuditMeta = {}): Promise<{ requestStatus: RequestStatus }> {
  const rejected = await runTransition(deps, actor, requestId, 'reject', meta);
  await sendQuietly(deps, rejectionMail(rejected, deps.labName));
  return { requestStatus: rejected.status };
}

/** FOR_RELEASE -> RELEASED: the client can read the results. */
export async function releaseRequest(deps: DeskDeps, actor: Actor, requestId: number, meta: AuditMeta = {}): Promise<{ requestStatus: RequestStatus }> {
  const released = await runTransition(deps, actor, requestId, 'release', meta);
  await sendQuietly(deps, releaseMail(released, deps.labName));
  return { requestStatus: released.status };
}
