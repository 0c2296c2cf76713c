// The staff transitions of DESIGN.md section 5: approve, reject, release. Each runs in one
// transaction (an approval on PostgreSQL: one statement) whose status check is a guarded update
// (`where status = <the status read>`), so two concurrent transitions of the same request cannot
// both succeed, on SQLite or PostgreSQL, on one server instance or several. The client's e-mail is queued in the outbox in the same transaction;
// the outbox worker sends it after the commit. Used by the API and by `labctl requests approve|reject|release`.
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { isoNow } from '../../clock.js';
import { analysisRow } from '../../db/analyses.js';
import { CONTROL_NUMBER_MARK, moveWithNextNumberAtOnce, takesNumbersAtOnce, updateWithNextNumber } from '../../db/controlNumbers.js';
import { mailQueued, mailRow } from '../../db/outbox.js';
import { lockForUpdate, runTogether, slices, type Statement } from '../../db/sql.js';
import { applyCountChanges, countsOfRequests } from '../../db/reportCounts.js';
import { progressReplacing, refreshProgress } from '../../db/requestProgress.js';
import { inShortWrite, inTransaction, retryingConflicts } from '../../db/transaction.js';
import { can, type Action, type Actor } from '../../domain/policies.js';
import { plannedAnalyses } from '../../domain/requestShape.js';
import { applyTransition, type RequestStatus, type Transition } from '../../domain/requestStatus.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { MailMessage } from '../../mail/mailer.js';
import { approvalMail, rejectionMail, releaseMail, type MailRequest } from '../../mail/requestMails.js';
import { auditInsert, auditRow } from '../audit.js';
import { clientMailInsert } from './clientMail.js';

export interface DeskDeps {
  db: Knex;
  clock: Clock;
  labName: string;
  logger?: Logger;
}

/** Where a change came from, for the audit log (the API passes the caller's IP; the CLI nothing). */
export interface AuditMeta {
  ip?: string | null;
}

/**
 * What a transition's own work answers: the request's changed columns (recorded as the audit
 * entry's `after`), and what else the audit entry keeps (a rejection's reason, a release's signature).
 */
export interface TransitionOutcome {
  changes?: Partial<RequestHead>;
  audit?: Record<string, unknown>;
}

/** The few columns a transition reads and a mail needs. */
export interface RequestHead extends MailRequest {
  status: RequestStatus;
  clientUserId: number;
  dueDate: string | null;
}

/** Reads the head of a request (`locked`: its row locked until the transaction ends); 404 when there is none. */
export async function readRequestHead(db: Knex | Knex.Transaction, requestId: number, { locked = false } = {}): Promise<RequestHead> {
  const query = db('requests').where('id', requestId).first('id', 'status', 'client_user_id', 'control_number', 'submission_date', 'due_date', 'email_address');
  const row = await (locked ? lockForUpdate(db, query) : query);
  if (!row) throw notFound(`There is no request ${requestId}.`);
  return {
    requestId: Number(row.id),
    status: row.status as RequestStatus,
    clientUserId: Number(row.client_user_id),
    controlNumber: row.control_number,
    submissionDate: row.submission_date,
    dueDate: row.due_date ?? null,
    emailAddress: row.email_address,
  };
}

const ACTIONS: Record<Transition, Action> = { approve: 'request:approve', reject: 'request:reject', release: 'request:release' };
const STAMPS: Record<Transition, { by: string; at: string }> = {
  approve: { by: 'approved_by', at: 'approved_at' },
  reject: { by: 'rejected_by', at: 'rejected_at' },
  release: { by: 'released_by', at: 'released_at' },
};

/** A transition's own work, in its transaction. */
interface TransitionWork {
  /**
   * Work done before the request moves, with the head read locked (so a concurrent transition of the
   * request waits for this one, then finds it moved).
   */
  first?: (trx: Knex.Transaction, head: RequestHead) => Promise<void>;
  /** The year whose next control number the move takes (an approval), kept with the request. */
  numberIn?: number;
  /**
   * Brings the queues' progress rows of the request up to date, with whatever work they follow
   * (default: refreshProgress recomputes them from what is stored).
   */
  progress?: (trx: Knex.Transaction, head: RequestHead) => Promise<void>;
  then?: (trx: Knex.Transaction, head: RequestHead) => Promise<TransitionOutcome>;
  /** Waits for nothing outside the database: run as a short write (inShortWrite), on SQLite sharing a commit. */
  short?: boolean;
}

/**
 * Moves the request, stamps who and when, lets `work` do the transition's own work in the same
 * transaction, records the audit entry and queues the client's `mail`. Answers 403 / 404 / 409 (with
 * the status machine's reason).
 */
async function runTransition(
  deps: DeskDeps,
  actor: Actor,
  requestId: number,
  transition: Transition,
  meta: AuditMeta,
  mail: (moved: RequestHead) => MailMessage,
  work: TransitionWork = {},
): Promise<RequestHead> {
  if (!can(actor, ACTIONS[transition])) throw forbidden();
  return (work.short ? inShortWrite : inTransaction)(deps.db, async (trx) => {
    const head = await readRequestHead(trx, requestId, { locked: work.first !== undefined });
    const check = applyTransition(head.status, transition);
    if (!check.ok) throw conflict(check.reason);
    await work.first?.(trx, head);
    const now = isoNow(deps.clock);
    const { by, at } = STAMPS[transition];
    // The guarded update is the real check: it waits for a concurrent transition of the same row and
    // then finds the status changed.
    const { moved, controlNumber } = await moveRequest(trx, requestId, head.status, { status: check.to, [by]: actor.id, [at]: now, updated_at: now }, work.numberIn);
    if (moved === 0) {
      const fresh = applyTransition((await readRequestHead(trx, requestId)).status, transition);
      throw conflict(fresh.ok ? 'The request changed meanwhile. Please try again.' : fresh.reason);
    }
    // The queues' progress rows follow the new status (and, on approval, the analyses just planned).
    await (work.progress ?? ((t) => refreshProgress(t, [requestId])))(trx, head);
    const { changes = {}, audit = {} } = (await work.then?.(trx, head)) ?? {};
    if (controlNumber !== undefined) changes.controlNumber = controlNumber;
    const after = { ...head, ...changes, status: check.to };
    // The audit entry and the client's mail in one statement (runTogether).
    await runTogether(trx, [
      auditInsert(trx, deps.clock, {
        actorUserId: actor.id,
        action: `request.${transition}`,
        requestId,
        details: { before: { status: head.status }, after: { status: check.to, ...changes }, ...audit },
        ip: meta.ip,
      }),
      clientMailInsert(trx, actor, requestId, mail(after)),
    ]);
    return after;
  });
}

/**
 * The guarded update that moves the request (0 rows when its status changed meanwhile) and, given
 * `numberIn`, the control number it took, the year's next (db/controlNumbers.ts).
 */
async function moveRequest(
  trx: Knex.Transaction,
  requestId: number,
  from: RequestStatus,
  values: Record<string, unknown>,
  numberIn?: number,
): Promise<{ moved: number; controlNumber?: string }> {
  const guarded = trx('requests').where({ 'requests.id': requestId, 'requests.status': from });
  if (numberIn === undefined) return { moved: await guarded.update(values) };
  return updateWithNextNumber(trx, guarded, values, numberIn);
}

/**
 * Plans one analysis per sample and ticked test, and the request's queue progress rows from them:
 * one read of its samples and tests, then writes (a round trip each counts on PostgreSQL).
 */
async function planAnalyses(trx: Knex.Transaction, head: RequestHead): Promise<void> {
  await runTogether(trx, analysesPlan(trx, head, await samplesAndTests(trx, head.requestId)));
}

/** A request's samples, in their order, and its ticked tests: one read. */
async function samplesAndTests(db: Knex | Knex.Transaction, requestId: number): Promise<{ samples: number[]; tests: string[] }> {
  const both: Array<{ sample_id: number | null; test_code: string | null; position: number | null }> = await db('samples')
    .where('request_id', requestId)
    .select('id as sample_id', db.raw('null as test_code'), 'position')
    .unionAll((q) => q.from('request_tests').where('request_id', requestId).select(db.raw('null'), 'test_code', db.raw('null')));
  return {
    samples: both.filter((r) => r.sample_id !== null).sort((a, b) => Number(a.position) - Number(b.position)).map((r) => Number(r.sample_id)),
    tests: both.flatMap((r) => (r.test_code === null ? [] : [r.test_code])),
  };
}

/** The writes of an approval's planned analyses and the request's progress rows from them. */
function analysesPlan(db: Knex | Knex.Transaction, head: RequestHead, { samples, tests }: { samples: number[]; tests: string[] }): Statement[] {
  const { requestId } = head;
  const planned = plannedAnalyses(samples, tests);
  const rows = planned.map((a) => analysisRow(requestId, a.sampleId, a.testCode));
  const request = { id: requestId, status: 'FOR_TESTING', submission_date: head.submissionDate, due_date: head.dueDate };
  // Plain multi-row inserts (knex's batchInsert opens a savepoint of its own and waits a turn of the
  // event loop, which cost more than the insert itself), sent with the progress rows as one statement.
  return [...slices(rows).map((chunk) => db('analyses').insert(chunk)), ...progressReplacing(db, request, tests, planned.map((a) => a.group))];
}

/** PENDING_REVIEW -> FOR_TESTING with the next control number of the year and the analyses to do. */
export async function approveRequest(deps: DeskDeps, actor: Actor, requestId: number, meta: AuditMeta = {}): Promise<{ controlNumber: string }> {
  const year = deps.clock.now().getUTCFullYear();
  if (takesNumbersAtOnce(deps.db)) return approveAtOnce(deps, actor, requestId, meta, year);
  const mail = (approved: RequestHead) => approvalMail({ ...approved, controlNumber: approved.controlNumber! }, deps.labName);
  const approved = await runTransition(deps, actor, requestId, 'approve', meta, mail, {
    short: true,
    // The analyses and their progress rows are planned before the move, which takes the number: from
    // there to their commit, approvals everywhere queue on the year's counter row.
    first: (trx, head) => planAnalyses(trx, head),
    numberIn: year,
    progress: async () => undefined,
  });
  return { controlNumber: approved.controlNumber! };
}

/**
 * The approval on PostgreSQL: two reads (the request; its samples and tests, which only a submission
 * writes), then every write as one statement committing itself (moveWithNextNumberAtOnce), the
 * control number filled into the audit entry and the mail there. Three round trips instead of seven,
 * and none while approvals everywhere wait for the year's counter. The guarded move is the check, as
 * in runTransition: when it finds the request changed, nothing is written and a fresh read says why.
 */
async function approveAtOnce(deps: DeskDeps, actor: Actor, requestId: number, meta: AuditMeta, year: number): Promise<{ controlNumber: string }> {
  if (!can(actor, ACTIONS.approve)) throw forbidden();
  const head = await readRequestHead(deps.db, requestId);
  const check = applyTransition(head.status, 'approve');
  if (!check.ok) throw conflict(check.reason);
  const now = isoNow(deps.clock);
  const after = { ...head, status: check.to, controlNumber: CONTROL_NUMBER_MARK };
  const numbered = [
    { table: 'audit_log', row: auditRow(deps.clock, { actorUserId: actor.id, action: 'request.approve', requestId, details: { before: { status: head.status }, after: { status: check.to, controlNumber: CONTROL_NUMBER_MARK } }, ip: meta.ip }) },
    { table: 'outbox', row: mailRow(approvalMail(after, deps.labName), { requestId, actorUserId: actor.id }) },
  ];
  const plan = analysesPlan(deps.db, head, await samplesAndTests(deps.db, requestId));
  const guarded = deps.db('requests').where({ 'requests.id': requestId, 'requests.status': head.status });
  const values = { status: check.to, [STAMPS.approve.by]: actor.id, [STAMPS.approve.at]: now, updated_at: now };
  try {
    const controlNumber = await retryingConflicts(() => moveWithNextNumberAtOnce(deps.db, guarded, values, year, plan, numbered));
    mailQueued();
    return { controlNumber };
  } catch (err) {
    const fresh = applyTransition((await readRequestHead(deps.db, requestId)).status, 'approve');
    if (!fresh.ok) throw conflict(fresh.reason);
    throw err;
  }
}

/**
 * PENDING_REVIEW or FOR_RELEASE -> REJECTED. The reason, when given, is stored as a 'rejection'
 * message of the request (the client reads it on the request), kept in the audit entry (the
 * request's timeline tells it) and e-mailed.
 */
export async function rejectRequest(
  deps: DeskDeps,
  actor: Actor,
  requestId: number,
  meta: AuditMeta = {},
  reason: string | null = null,
): Promise<{ requestStatus: RequestStatus }> {
  const mail = (r: RequestHead) => rejectionMail(r, deps.labName, reason);
  // A rejected request's results leave the monthly reports (a FOR RELEASE request has some).
  const rejected = await runTransition(deps, actor, requestId, 'reject', meta, mail, {
    then: async (trx) => {
      await applyCountChanges(trx, await countsOfRequests(trx, [requestId]), new Map());
      if (!reason) return {};
      await trx('request_messages').insert({ request_id: requestId, author_user_id: actor.id, kind: 'rejection', body: reason, created_at: isoNow(deps.clock) });
      return { audit: { reason } };
    },
  });
  return { requestStatus: rejected.status };
}

/**
 * FOR_RELEASE -> RELEASED: the client can read the results. `issue` runs in the release's transaction
 * (the signed release issues the certificate there, services/certificates/release.ts).
 */
export async function releaseRequest(
  deps: DeskDeps,
  actor: Actor,
  requestId: number,
  meta: AuditMeta = {},
  issue?: (trx: Knex.Transaction) => Promise<TransitionOutcome>,
): Promise<{ requestStatus: RequestStatus }> {
  const released = await runTransition(deps, actor, requestId, 'release', meta, (r) => releaseMail(r, deps.labName), { then: issue });
  return { requestStatus: released.status };
}
