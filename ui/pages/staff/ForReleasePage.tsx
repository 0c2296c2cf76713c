import { useCallback, useId, useState } from 'react';
import { FAMILIES, FAMILY_LABELS } from '../../../server/domain/catalog.js';
import { FAMILY_COMPLETION_KEY, type ForReleaseRow } from '../../../server/domain/completion.js';
import { testResultsBySample } from '../../../server/domain/resultShape.js';
import { listForRelease, rejectRequest, releaseRequest } from '../../api/desk.js';
import { getRequestDetail } from '../../api/requests.js';
import { getCombinedResult } from '../../api/results.js';
import { LoadStatus } from '../../components/LoadStatus.js';
import { Page } from '../../components/Page.js';
import { SampleResults } from '../../components/requests/SampleResults.js';
import { useLoad } from '../../hooks/useLoad.js';
import '../../styles/client.css';
import '../../styles/staff.css';

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

  async function act(request: ForReleaseRow, action: 'release' | 'reject') {
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
      <LoadStatus state={state} />
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
                    {FAMILIES.filter((family) => r[family]).map((family) => {
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
                    <button type="button" className="button button-negative" disabled={busy} onClick={() => void act(r, 'reject')}>
                      Reject
                    </button>
                  </div>
                </div>
                <div id={panel} className="release-results" hidden={!expanded}>
                  {expanded && <ReleaseResults requestId={r.requestId} />}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}

/** The results of one request, per sample, read when its row is expanded. */
function ReleaseResults({ requestId }: { requestId: number }) {
  const state = useLoad(
    useCallback(
      async (signal: AbortSignal) => {
        const [request, result] = await Promise.all([getRequestDetail(requestId, signal), getCombinedResult(requestId, signal)]);
        return { samples: request.samples, bySample: testResultsBySample(result, request.tests) };
      },
      [requestId],
    ),
  );
  if (state.status !== 'ready') return <LoadStatus state={state} />;
  return state.data.samples.map((sample) => (
    <SampleResults
      key={sample.sampleId}
      position={sample.position}
      description={sample.sampleTypeDescription}
      results={state.data.bySample.get(sample.sampleId) ?? []}
    />
  ));
}
