import { useCallback } from 'react';
import type { ReportSummary } from '../../../server/domain/certificate.js';
import { certificateUrl, listReports } from '../../api/certificates.js';
import { useLoad } from '../../hooks/useLoad.js';
import { LoadStatus } from '../LoadStatus.js';
import '../../styles/certificates.css';

const statusText = (r: ReportSummary) =>
  r.withdrawal ? ` — withdrawn ${r.withdrawal.at.slice(0, 10)} by ${r.withdrawal.signerName}` : r.status === 'amended' ? ' — replaced by a later amendment' : ' — valid';

/**
 * The certificates of analysis of a released request: every issued report (an amendment names the
 * report it replaces, a withdrawn one says so), each with its PDF; with `onWithdraw` (staff), a
 * Withdraw button on each report not withdrawn yet.
 */
export function ReportList({ requestId, onWithdraw }: { requestId: number | string; onWithdraw?: (reportNumber: string) => void }) {
  const state = useLoad(useCallback((signal: AbortSignal) => listReports(requestId, signal), [requestId]));
  return (
    <section className="certificates" aria-label="Certificates of analysis">
      <h2>Certificate of Analysis</h2>
      <LoadStatus state={state} />
      {state.status === 'ready' && state.data.length === 0 && <p className="empty">No certificate was issued for this request.</p>}
      {state.status === 'ready' && state.data.length > 0 && (
        <ul className="certificate-list">
          {[...state.data].reverse().map((r) => (
            <li key={r.reportNumber} className={`certificate certificate-${r.status}`}>
              <p>
                <strong>Report {r.reportNumber}</strong>
                {r.replaces ? ` (Amendment ${r.version - 1} to ${r.replaces})` : ''}, issued {r.issuedAt.slice(0, 10)}, authorized by {r.signerName}
                {statusText(r)}
              </p>
              {r.amendmentReason && <p>Reason for amendment: {r.amendmentReason}</p>}
              {r.withdrawal && <p>Reason for withdrawal: {r.withdrawal.reason}</p>}
              <a className="button button-secondary button-small" href={certificateUrl(requestId, r.version)} download>
                Download certificate {r.reportNumber}
              </a>
              {onWithdraw && !r.withdrawal && (
                <button type="button" className="button button-negative button-small" onClick={() => onWithdraw(r.reportNumber)}>
                  Withdraw {r.reportNumber}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
