import { useCallback, useId, useState } from 'react';
import { findAnalyte } from '../../../server/domain/catalog.js';
import { AMENDMENT_MEANING } from '../../../server/domain/certificate.js';
import { testResultsBySample, type TestResult } from '../../../server/domain/resultShape.js';
import { amendResults, type AmendedResult } from '../../api/certificates.js';
import { getRequestDetail } from '../../api/requests.js';
import { getCombinedResult } from '../../api/results.js';
import { ReEvaluateDialog } from '../../components/certificates/ReEvaluateDialog.js';
import { ReportList } from '../../components/certificates/ReportList.js';
import { WithdrawDialog } from '../../components/certificates/WithdrawDialog.js';
import { LoadStatus } from '../../components/LoadStatus.js';
import { Page } from '../../components/Page.js';
import { useNotify } from '../../components/Notice.js';
import { QueueFooter } from '../../components/queue/QueueFooter.js';
import { RequestResults } from '../../components/requests/RequestResults.js';
import { useDeskQueue } from '../../components/queue/useDeskQueue.js';
import { SignatureDialog } from '../../components/SignatureDialog.js';
import { useLoad } from '../../hooks/useLoad.js';
import '../../styles/client.css';
import '../../styles/staff.css';
import { ScrollingTable } from '../../components/ScrollingTable.js';

/**
 * /released/{userId}: every released request, latest release first, a keyset page at a time, searched
 * by control number, company or lot, filtered by discipline and release days, downloadable as CSV
 * (the whole filtered list); the view lives in the address. A request opens its results (each
 * amended one marked), certificates, amendments (ISO/IEC 17025 7.8.8), re-evaluation against the
 * specifications in force (issue 26) and withdrawals.
 */
export function ReleasedRequestsPage() {
  const id = useId();
  const { queue, controls } = useDeskQueue('released', 'control number, company or lot', 'released requests');
  const [open, setOpen] = useState<number | null>(null);
  return (
    <Page title="Released" note="Released requests, latest first: their certificates, and amendments of their results." width="wide">
      {controls}
      {queue.rows.length > 0 && (
        <ul className="release-list">
          {queue.rows.map((r) => {
            const expanded = open === r.requestId;
            const panel = `${id}-released-${r.requestId}`;
            return (
              <li key={r.requestId} className="release-item">
                <div className="release-row">
                  <h2 className="release-number">
                    <button type="button" className="button button-link" aria-expanded={expanded} aria-controls={panel} onClick={() => setOpen(expanded ? null : r.requestId)}>
                      <span aria-hidden="true">{expanded ? '▾' : '▸'}</span>
                      <span className="visually-hidden">Control Number </span>
                      {r.controlNumber}
                    </button>
                  </h2>
                  <p className="break-anywhere">
                    {r.companyName}
                    {r.lotBatchNo && ` · Lot ${r.lotBatchNo}`}
                  </p>
                  <p>Released {(r.releasedAt ?? '').slice(0, 10)}</p>
                </div>
                <div id={panel} className="release-results" hidden={!expanded}>
                  {expanded && <ReleasedRequest request={r} />}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <QueueFooter queue={queue} empty="No released request matches." what="released requests" />
    </Page>
  );
}

/** One released request: its certificates, and the amendment, re-evaluation and withdrawal dialogs. */
function ReleasedRequest({ request }: { request: ReleasedRef }) {
  // Bumped after an amendment, a re-evaluation or a withdrawal: the certificates and results are read again.
  const [version, setVersion] = useState(0);
  const [amending, setAmending] = useState(false);
  const [reEvaluating, setReEvaluating] = useState(false);
  const [withdrawing, setWithdrawing] = useState<string | null>(null);
  return (
    <>
      <RequestResults key={`results-${version}`} requestId={request.requestId} released />
      <ReportList key={`reports-${version}`} requestId={request.requestId} onWithdraw={setWithdrawing} />
      {withdrawing && (
        <WithdrawDialog
          reportNumber={withdrawing}
          onDone={() => {
            setWithdrawing(null);
            setVersion((v) => v + 1);
          }}
          onClose={() => setWithdrawing(null)}
        />
      )}
      <div className="actions">
        <button type="button" className="button button-secondary" onClick={() => setAmending(true)}>
          Amend results
        </button>
        <button type="button" className="button button-secondary" onClick={() => setReEvaluating(true)}>
          Re-evaluate against current specifications
        </button>
      </div>
      {amending && (
        <AmendDialog
          key={`amend-${version}`}
          request={request}
          onDone={() => {
            setAmending(false);
            setVersion((v) => v + 1);
          }}
          onClose={() => setAmending(false)}
        />
      )}
      {reEvaluating && (
        <ReEvaluateDialog
          key={`re-evaluate-${version}`}
          request={request}
          onDone={() => {
            setReEvaluating(false);
            setVersion((v) => v + 1);
          }}
          onClose={() => setReEvaluating(false)}
        />
      )}
    </>
  );
}

/** The released request a panel or dialog is about. */
type ReleasedRef = { requestId: number; controlNumber: string | null };

type Draft = { sampleId: number; position: number; testCode: string; value: string; remark: '' | 'positive' | 'negative'; analysisDate: string };

const draftOf = (sampleId: number, position: number, r: TestResult): Draft => ({
  sampleId, position, testCode: r.testCode, value: r.value ?? '', remark: r.remark ?? '', analysisDate: r.analysisDate ?? '',
});

function AmendDialog({ request, onDone, onClose }: { request: ReleasedRef; onDone: () => void; onClose: () => void }) {
  const state = useLoad(
    useCallback(async (signal: AbortSignal) => {
      const [detail, result] = await Promise.all([getRequestDetail(request.requestId, signal), getCombinedResult(request.requestId, signal)]);
      const bySample = testResultsBySample(result, detail.tests);
      return detail.samples.flatMap((s) => (bySample.get(s.sampleId) ?? []).map((r) => draftOf(s.sampleId, s.position, r)));
    }, [request.requestId]),
  );
  const [reason, setReason] = useState('');
  const notify = useNotify();
  const [edits, setEdits] = useState<Record<string, Partial<Draft>>>({});
  const keyOf = (d: Draft) => `${d.sampleId}:${d.testCode}`;
  const edit = (d: Draft, change: Partial<Draft>) => setEdits((e) => ({ ...e, [keyOf(d)]: { ...e[keyOf(d)], ...change } }));

  async function sign(password: string) {
    if (state.status !== 'ready') return;
    const results: AmendedResult[] = state.data
      .filter((d) => edits[keyOf(d)])
      .map((d) => ({ ...d, ...edits[keyOf(d)] }))
      .map(({ sampleId, testCode, value, remark, analysisDate }) => ({ sampleId, testCode, value, remark, analysisDate }));
    const amended = await amendResults(request.requestId, { reason, password, results });
    notify(`Certificate ${amended.reportNumber} issued; it replaces ${amended.replaces}.`, 'success');
    onDone();
  }

  return (
    <SignatureDialog
      title={`Amend the results of ${request.controlNumber}`}
      meaning={AMENDMENT_MEANING}
      signLabel="Sign and issue amendment"
      failureMessage="The amendment could not be saved. Please try again."
      onSign={sign}
      onClose={onClose}
    >
      <LoadStatus state={state} />
      {state.status === 'ready' && (
        <ScrollingTable label="Results to amend">
          <table className="amend-table">
            <thead>
              <tr>
                <th scope="col">Sample</th>
                <th scope="col">Test</th>
                <th scope="col">Result</th>
                <th scope="col">Remark</th>
                <th scope="col">Analysis Date</th>
              </tr>
            </thead>
            <tbody>
              {state.data.map((d) => {
                const current = { ...d, ...edits[keyOf(d)] };
                const name = `sample ${d.position} ${findAnalyte(d.testCode)?.label ?? d.testCode}`;
                return (
                  <tr key={keyOf(d)}>
                    <td>{d.position}</td>
                    <th scope="row">{findAnalyte(d.testCode)?.label ?? d.testCode}</th>
                    <td>
                      <input aria-label={`Result of ${name}`} value={current.value} onChange={(e) => edit(d, { value: e.target.value })} />
                    </td>
                    <td>
                      <select aria-label={`Remark of ${name}`} value={current.remark} onChange={(e) => edit(d, { remark: e.target.value as Draft['remark'] })}>
                        <option value="">—</option>
                        <option value="positive">Positive (+)</option>
                        <option value="negative">Negative (-)</option>
                      </select>
                    </td>
                    <td>
                      <input type="date" aria-label={`Analysis date of ${name}`} value={current.analysisDate} onChange={(e) => edit(d, { analysisDate: e.target.value })} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollingTable>
      )}
      <div className="field">
        <label htmlFor={`reason-${request.requestId}`}>Reason for the amendment</label>
        <textarea id={`reason-${request.requestId}`} value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={1000} rows={3} />
      </div>
    </SignatureDialog>
  );
}
