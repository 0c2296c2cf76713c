// Amendment after release (ISO/IEC 17025 7.8.8): staff correct a released request's results with a
// reason and their signature; the next report is issued naming the one it replaces, and the client is
// e-mailed. The replaced report keeps its own snapshot, so nothing it printed is overwritten.
// Re-evaluating a released request against the specifications and rule in force now (issue 26) is
// such an amendment too: explicit, signed, audited, never silent.
import type { Knex } from 'knex';
import { AMENDMENT_MEANING, type AmendmentInput } from '../../domain/certificate.js';
import { can, type Actor } from '../../domain/policies.js';
import { reportMonth } from '../../domain/requestShape.js';
import { normalizeResult } from '../../domain/resultShape.js';
import { badRequest, conflict, forbidden } from '../../errors.js';
import { applyCountChanges, countsOfRequests } from '../../db/reportCounts.js';
import { refreshProgress } from '../../db/requestProgress.js';
import { inTransaction } from '../../db/transaction.js';
import { amendmentMail } from '../../mail/requestMails.js';
import { recordAudit } from '../audit.js';
import { mailClient } from '../requests/clientMail.js';
import { readRequestHead, type AuditMeta, type DeskDeps } from '../requests/transitions.js';
import { issueReport } from './reports.js';
import { checkSignature } from './signature.js';
import { rejudgeRequest } from '../results/judge.js';

type Amended = { reportNumber: string; replaces: string };

/**
 * The frame of every amendment: the signature, the released request and its current report, the
 * report counters and progress after `apply` changed the results (it answers what changed, and
 * refuses with a 400 when nothing did), the audit entry `action`, the new report and the client's mail.
 */
async function amend(
  deps: DeskDeps,
  actor: Actor,
  requestId: number,
  input: { reason: string; password: string },
  action: string,
  apply: (trx: Knex.Transaction, now: string) => Promise<Record<string, unknown>>,
  meta: AuditMeta,
): Promise<Amended> {
  if (!can(actor, 'certificate:amend')) throw forbidden();
  const signer = await checkSignature(deps, actor, input.password, 'nothing was amended', meta.ip);
  return inTransaction(deps.db, async (trx) => {
    const head = await readRequestHead(trx, requestId);
    if (head.status !== 'RELEASED') throw conflict('Only the results of a released request can be amended.');
    const current = await trx('reports as r')
      .leftJoin('reports as n', 'n.replaces_report_id', 'r.id')
      .where('r.request_id', requestId)
      .whereNull('n.id')
      .first('r.id', 'r.version', 'r.report_number');
    if (!current) throw conflict('This request was released before certificates were issued, so there is no report to amend.');

    // The monthly report counters follow the amended remarks and months (server/db/reportCounts.ts).
    const countedBefore = await countsOfRequests(trx, [requestId]);
    const details = await apply(trx, deps.clock.now().toISOString());
    await applyCountChanges(trx, countedBefore, await countsOfRequests(trx, [requestId]));
    await refreshProgress(trx, [requestId]);

    await recordAudit(trx, deps.clock, { actorUserId: actor.id, action, requestId, details: { reason: input.reason, ...details }, ip: meta.ip });
    const issued = await issueReport(trx, deps.clock, {
      requestId,
      signer,
      meaning: AMENDMENT_MEANING,
      replaces: { id: Number(current.id), version: Number(current.version), reportNumber: current.report_number },
      reason: input.reason,
      ip: meta.ip,
    });
    await mailClient(trx, actor, requestId, amendmentMail(head, current.report_number as string, issued.reportNumber, input.reason, deps.labName));
    return { reportNumber: issued.reportNumber, replaces: current.report_number as string };
  });
}

export async function amendResults(deps: DeskDeps, actor: Actor, requestId: number, input: AmendmentInput, meta: AuditMeta = {}): Promise<Amended> {
  return amend(deps, actor, requestId, input, 'report.amend', async (trx, now) => {
    const stored = await trx('analyses').where('request_id', requestId).select('id', 'sample_id', 'test_code', 'value', 'remark', 'analysis_date');
    const byKey = new Map(stored.map((a) => [`${a.sample_id}:${a.test_code}`, a]));
    const changes: Array<{ sampleId: number; testCode: string; before: object; after: object }> = [];
    const problems: string[] = [];
    for (const entry of input.results) {
      const analysis = byKey.get(`${entry.sampleId}:${entry.testCode}`);
      const after = normalizeResult(entry);
      if (!analysis) problems.push(`sample ${entry.sampleId} has no test ${entry.testCode} in this request`);
      else if (after.value === null) problems.push(`sample ${entry.sampleId} ${entry.testCode}: an amended result needs a value`);
      else if (after.value !== analysis.value || after.remark !== analysis.remark || after.analysisDate !== analysis.analysis_date) {
        changes.push({
          sampleId: entry.sampleId,
          testCode: entry.testCode,
          before: { value: analysis.value, remark: analysis.remark, analysisDate: analysis.analysis_date },
          after,
        });
        await trx('analyses').where('id', analysis.id).update({
          value: after.value,
          remark: after.remark,
          analysis_date: after.analysisDate,
          report_month: reportMonth(after.analysisDate, now),
          entered_by: actor.id,
          entered_at: now,
        });
      }
    }
    if (problems.length) throw badRequest(problems.join('; '));
    if (changes.length === 0) throw badRequest('These results are the ones already reported: nothing to amend.');
    // An amended result is judged again (issue 26), in the same transaction.
    const decisions = await rejudgeRequest(trx, deps.clock, requestId, changes);
    return { changes, ...(decisions.length ? { decisions } : {}) };
  }, meta);
}

/**
 * POST /api/requests/{id}/re-evaluate: judges a released request's results against the
 * specifications and rule in force now, and issues the amended report naming the decisions that
 * changed. 400 when every decision stands.
 */
export async function reEvaluate(deps: DeskDeps, actor: Actor, requestId: number, input: { reason: string; password: string }, meta: AuditMeta = {}): Promise<Amended> {
  return amend(deps, actor, requestId, input, 'report.re-evaluate', async (trx) => {
    const decisions = await rejudgeRequest(trx, deps.clock, requestId);
    if (decisions.length === 0) throw badRequest('Every decision stands under the specifications and decision rule in force: nothing to re-evaluate.');
    return { decisions };
  }, meta);
}
