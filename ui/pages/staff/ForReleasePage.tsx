import { useCallback, useId, useState } from 'react';
import { findAnalyte, FAMILY_LABELS } from '../../../server/domain/catalog.js';
import { FAMILY_COMPLETION_KEY } from '../../../server/domain/completion.js';
import { familiesOf } from '../../../server/domain/requestShape.js';
import { listForRelease, rejectRequest, releaseRequest, type ReleaseCandidate } from '../../api/desk.js';
import { Page } from '../../components/Page.js';
import { formatDay } from '../../components/requests/format.js';
import { failureText, useLoad } from '../../hooks/useLoad.js';
import '../../styles/client.css';
import '../../styles/staff.css';

function Remark({ value }: { value: 'positive' | 'negative' | null }) {
  if (!value) return <>—</>;
  return <span className={`remark remark-${value}`}>{value === 'positive' ? 'Positive' : 'Negative'}</span>;
}

/** Every result of the request, one table per sample. */
function Results({ request }: { request: ReleaseCandidate }) {
  return (
    <>
      {request.samples.map((sample) => {
        const results = request.results.filter((a) => a.sampleId === sample.sampleId);
        return (
          <div key={sample.sampleId} className="result-sample">
            <h3 className="break-anywhere">
              Sample {sample.position}: {sample.sampleTypeDescription}
            </h3>
            <div className="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Test</th>
                    <th scope="col">Result</th>
                    <th scope="col">Remark</th>
                    <th scope="col">Analysis Date</th>
                  </tr>
                </thead>
                <tbody>
                  {results.map((a) => (
                    <tr key={a.testCode}>
                      <th scope="row">{findAnalyte(a.testCode)?.label ?? a.testCode}</th>
                      <td className="break-anywhere">{a.value ?? '—'}</td>
                      <td>
                        <Remark value={a.remark} />
                      </td>
                      <td>{formatDay(a.analysisDate) ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        );
      })}
    </>
  );
}

/** /for-release/{userId}: requests with complete results, to release to the client (or reject). */
export function ForReleasePage() {
  // Bumped after a release or rejection: a new list instance loads the list again.
  const [version, setVersion] = useState(0);
  return (
    <Page title="For Release" note="Requests with complete results, ready to be released to the client." width="wide">
      <ReleaseList key={version} onChange={() => setVersion((v) => v + 1)} />
    </Page>
  );
}

function ReleaseList({ onChange }: { onChange: () => void }) {
  const id = useId();
  const state = useLoad(useCallback((signal: AbortSignal) => listForRelease(signal), []));
  const [open, setOpen] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  async function act(request: ReleaseCandidate, action: 'release' | 'reject') {
    const number = request.controlNumber ?? `request ${request.requestId}`;
    const question =
      action === 'release' ? `Release the results of ${number} to the client?` : `Reject ${number}? The client will be told.`;
    if (!window.confirm(question)) return;
    setBusy(true);
    try {
      if (action === 'release') await releaseRequest(request.requestId);
      else await rejectRequest(request.requestId);
      window.alert(action === 'release' ? 'Request released successfully' : 'Request has been rejected');
      onChange();
    } catch (error) {
      console.error(`Could not ${action} request ${request.requestId}:`, error);
      window.alert('Failed to release request. Please try again.');
      setBusy(false);
    }
  }

  return (
    <>
      {state.status === 'loading' && <p role="status">Loading...</p>}
      {state.status === 'error' && (
        <p className="form-error" role="alert">
          {failureText(state.error)}
        </p>
      )}
      {state.status === 'ready' && state.data.length === 0 && <p className="empty">There are no requests for release at the moment.</p>}
      {state.status === 'ready' && state.data.length > 0 && (
        <ul className="release-list">
          {state.data.map((r) => {
            const expanded = open === r.requestId;
            const panel = `${id}-results-${r.requestId}`;
            return (
              <li key={r.requestId} className="release-item">
                <div className="release-row">
                  <h2 className="release-number">
                    <button
                      type="button"
                      className="button button-link"
                      aria-expanded={expanded}
                      aria-controls={panel}
                      onClick={() => setOpen(expanded ? null : r.requestId)}
                    >
                      <span aria-hidden="true">{expanded ? '▾' : '▸'}</span>
                      <span className="visually-hidden">Control Number </span>
                      {r.controlNumber}
                    </button>
                  </h2>
                  <dl className="release-families">
                    {familiesOf(r.tests).map((family) => {
                      const complete = r[FAMILY_COMPLETION_KEY[family]];
                      return (
                        <div key={family} className="release-family">
                          <dt>{FAMILY_LABELS[family]}</dt>
                          <dd className={complete ? 'family-complete' : 'family-pending'}>{complete ? 'Completed' : 'Pending'}</dd>
                        </div>
                      );
                    })}
                  </dl>
                  <div className="release-actions">
                    <button type="button" className="button button-primary" disabled={busy} onClick={() => void act(r, 'release')}>
                      Release
                    </button>
                    <button type="button" className="button button-reject" disabled={busy} onClick={() => void act(r, 'reject')}>
                      Reject
                    </button>
                  </div>
                </div>
                <div id={panel} className="release-results" hidden={!expanded}>
                  {expanded && <Results request={r} />}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
