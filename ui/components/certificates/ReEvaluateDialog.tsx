import { useCallback, useId, useState } from 'react';
import { AMENDMENT_MEANING, MAX_AMENDMENT_REASON } from '../../../server/domain/certificate.js';
import type { Decision } from '../../../server/domain/specifications.js';
import { reEvaluateRequest } from '../../api/certificates.js';
import { getRequestDetail } from '../../api/requests.js';
import { getCombinedResult } from '../../api/results.js';
import { getRequestSpecifications } from '../../api/specifications.js';
import { useLoad } from '../../hooks/useLoad.js';
import { LoadStatus } from '../LoadStatus.js';
import { useNotify } from '../Notice.js';
import { ScrollingTable } from '../ScrollingTable.js';
import { SignatureDialog } from '../SignatureDialog.js';
import { DecisionBadge } from '../specifications/DecisionBadge.js';
import { analyteLabel } from '../specifications/format.js';
import { decisionChanges } from '../specifications/reEvaluation.js';

/** The released request re-evaluated. */
export type ReEvaluatedRef = { requestId: number; controlNumber: string | null };

function DecisionCell({ decision }: { decision: Decision | null }) {
  return (
    <td>
      {decision ? (
        <div className="conformity-cell">
          <DecisionBadge outcome={decision.outcome} />
          <span className="decision-reason">
            {decision.reason} (specification version {decision.specificationVersion})
          </span>
        </div>
      ) : (
        'not judged'
      )}
    </td>
  );
}

/**
 * Staff re-evaluate a released request against the specifications and decision rule in force
 * (issue 26): a reason and their password (the signature means what an amendment's does). Before
 * they sign, the dialog lists the decisions that would change, as the server would judge them; the
 * server decides, and refuses (400) when every decision stands.
 */
export function ReEvaluateDialog({ request, onDone, onClose }: { request: ReEvaluatedRef; onDone: () => void; onClose: () => void }) {
  const reasonId = useId();
  const previewId = useId();
  const [reason, setReason] = useState('');
  const notify = useNotify();
  const preview = useLoad(
    useCallback(async (signal: AbortSignal) => {
      const [detail, result, specs] = await Promise.all([
        getRequestDetail(request.requestId, signal),
        getCombinedResult(request.requestId, signal),
        getRequestSpecifications(request.requestId, signal),
      ]);
      const position = new Map(detail.samples.map((s) => [s.sampleId, s.position]));
      return decisionChanges(result, specs).map((c) => ({ ...c, position: position.get(c.sampleId) ?? 0 }));
    }, [request.requestId]),
  );

  async function sign(password: string) {
    const done = await reEvaluateRequest(request.requestId, { reason, password });
    notify(`Re-evaluated: certificate ${done.reportNumber} issued; it replaces ${done.replaces}.`, 'success');
    onDone();
  }

  const subject = request.controlNumber ?? `request ${request.requestId}`;
  return (
    <SignatureDialog
      title={`Re-evaluate ${subject} against current specifications`}
      meaning={AMENDMENT_MEANING}
      signLabel="Sign and re-evaluate"
      failureMessage="The re-evaluation could not be saved. Please try again."
      onSign={sign}
      onClose={onClose}
    >
      <p>
        Every result is judged again against the specifications and the decision rule in force now. When a decision changes, an amended certificate is issued
        naming the change and the client is e-mailed; the certificates already issued stay as they were. When no decision changes, nothing is issued.
      </p>
      <section className="re-evaluation-preview" aria-labelledby={previewId}>
        <h3 id={previewId}>What would change</h3>
        <LoadStatus state={preview} loading="Checking the decisions against the specifications in force..." />
        {preview.status === 'ready' && preview.data.length === 0 && (
          <p>No decision would change: every decision stands under the specifications and decision rule in force.</p>
        )}
        {preview.status === 'ready' && preview.data.length > 0 && (
          <ScrollingTable label="Decisions that would change">
            <table>
              <thead>
                <tr>
                  <th scope="col">Sample</th>
                  <th scope="col">Test</th>
                  <th scope="col">Decision now</th>
                  <th scope="col">After re-evaluation</th>
                </tr>
              </thead>
              <tbody>
                {preview.data.map((c) => (
                  <tr key={`${c.sampleId}:${c.testCode}`}>
                    <td>{c.position}</td>
                    <th scope="row">{analyteLabel(c.testCode)}</th>
                    <DecisionCell decision={c.before} />
                    <DecisionCell decision={c.after} />
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollingTable>
        )}
      </section>
      <div className="field">
        <label htmlFor={reasonId}>Reason for the re-evaluation</label>
        <textarea id={reasonId} value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={MAX_AMENDMENT_REASON} rows={3} />
      </div>
    </SignatureDialog>
  );
}
