// Withdrawal of a released report: staff sign (password again, meaning "Report withdrawn") with a
// reason; the report stays downloadable, marked withdrawn, and its public verification says so. The
// withdrawal, its audit entry and the client's mail are one transaction.
import { WITHDRAWAL_MEANING, type WithdrawalInput } from '../../domain/certificate.js';
import { can, type Actor } from '../../domain/policies.js';
import { isUniqueViolation } from '../../db/errors.js';
import { inTransaction } from '../../db/transaction.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import { withdrawalMail } from '../../mail/requestMails.js';
import { recordAudit } from '../audit.js';
import { mailClient } from '../requests/clientMail.js';
import { readRequestHead, type AuditMeta, type DeskDeps } from '../requests/transitions.js';
import { checkSignature } from './signature.js';

export interface Withdrawn {
  reportNumber: string;
  controlNumber: string;
  withdrawnAt: string;
  status: 'withdrawn';
}

/** Withdraws report `reportNumber` (e.g. 2026-0012-R1): 403 for non-desk, 404 unknown, 409 once withdrawn. */
export async function withdrawReport(deps: DeskDeps, actor: Actor, reportNumber: string, input: WithdrawalInput, meta: AuditMeta = {}): Promise<Withdrawn> {
  if (!can(actor, 'certificate:withdraw')) throw forbidden();
  const signer = await checkSignature(deps, actor, input.password, 'nothing was withdrawn', meta.ip);
  return inTransaction(deps.db, async (trx) => {
    const report = await trx('reports as r')
      .leftJoin('report_withdrawals as w', 'w.report_id', 'r.id')
      .where('r.report_number', reportNumber)
      .first('r.id', 'r.request_id', 'w.id as withdrawal_id');
    if (!report) throw notFound(`There is no report ${reportNumber}.`);
    const alreadyWithdrawn = conflict(`Report ${reportNumber} has already been withdrawn.`);
    if (report.withdrawal_id) throw alreadyWithdrawn;
    const head = await readRequestHead(trx, Number(report.request_id));
    const withdrawnAt = deps.clock.now().toISOString();
    try {
      await trx('report_withdrawals').insert({
        report_id: report.id,
        withdrawn_at: withdrawnAt,
        withdrawn_by: signer.id,
        signer_name: signer.name,
        signature_meaning: WITHDRAWAL_MEANING,
        reason: input.reason,
      });
    } catch (err) {
      // Two desks withdrawing the same report at once: the unique report_id keeps one.
      if (isUniqueViolation(err)) throw alreadyWithdrawn;
      throw err;
    }
    await recordAudit(trx, deps.clock, {
      actorUserId: actor.id,
      action: 'report.withdraw',
      requestId: head.requestId,
      details: { reportNumber, reason: input.reason, meaning: WITHDRAWAL_MEANING },
      ip: meta.ip,
    });
    await mailClient(trx, actor, head.requestId, withdrawalMail(head, reportNumber, input.reason, deps.labName));
    return { reportNumber, controlNumber: head.controlNumber ?? '', withdrawnAt, status: 'withdrawn' as const };
  });
}
