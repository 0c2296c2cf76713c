import { useId, useState } from 'react';
import { FAMILIES, FAMILY_LABELS } from '../../../server/domain/catalog.js';
import { familiesOf } from '../../../server/domain/requestShape.js';
import { rejectRequest, releaseRequest } from '../../api/desk.js';
import type { QueueRow } from '../../api/queues.js';
import { RELEASE_MEANING } from '../../../server/domain/certificate.js';
import { RejectDialog } from '../../components/desk/RejectDialog.js';
import { SignatureDialog } from '../../components/SignatureDialog.js';
import { Page } from '../../components/Page.js';
import { PositiveFinding } from '../../components/queue/PositiveFinding.js';
import { QueueFooter } from '../../components/queue/QueueFooter.js';
import { RequestResults } from '../../components/requests/RequestResults.js';
import { DecisionBadge } from '../../components/specifications/DecisionBadge.js';
import { useDeskQueue } from '../../components/queue/useDeskQueue.js';
import { formatDay, formatTimestampDay, purposeText } from '../../components/requests/format.js';
import { useNotify } from '../../components/Notice.js';
import '../../styles/client.css';
import '../../styles/staff.css';
import '../../styles/queue.css';

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
  const { queue, controls } = useDeskQueue('for-release', 'control number, company or lot', 'requests for release');
  const [open, setOpen] = useState<number | null>(null);
  const notify = useNotify();

  // Release is a signature (DESIGN.md section 10): the dialog asks for the password.
  const [signing, setSigning] = useState<QueueRow | null>(null);

  async function release(request: QueueRow, password: string) {
    await releaseRequest(request.requestId, password);
    setSigning(null);
    notify('Request released successfully', 'success');
    onChange();
  }

  // The dialog asks the reason and shows a failure itself (SPEC section 8's text).
  const [rejecting, setRejecting] = useState<QueueRow | null>(null);

  async function reject(request: QueueRow, reason: string) {
    await rejectRequest(request.requestId, reason);
    setRejecting(null);
    notify('Request has been rejected', 'success');
    onChange();
  }

  return (
    <>
      {controls}
      {queue.rows.length > 0 && (
        <ul className="release-list">
          {queue.rows.map((r) => {
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
                  {r.anyPositive && <PositiveFinding />}
                  <RowConformity row={r} />
                  <dl className="release-families">
                    {/* Every analysis of a request awaiting release is complete. */}
                    {FAMILIES.filter((family) => familiesOf(r.tests).includes(family)).map((family) => (
                      <div key={family} className="release-family">
                        <dt>{FAMILY_LABELS[family]}</dt>
                        <dd className="family-complete">Completed</dd>
                      </div>
                    ))}
                  </dl>
                  <p className="queue-meta release-meta">
                    <span className="break-anywhere">{r.companyName}</span>
                    <span>{purposeText(r.purpose, null)}</span>
                    <span>
                      {r.samples} sample{r.samples === 1 ? '' : 's'}
                    </span>
                    <span>Waiting since {formatTimestampDay(r.waitingSince)}</span>
                    {r.dueDate && <span>Due {formatDay(r.dueDate)}</span>}
                  </p>
                  <div className="release-actions">
                    <button type="button" className="button button-primary" onClick={() => setSigning(r)}>
                      Release
                    </button>
                    <button type="button" className="button button-negative" onClick={() => setRejecting(r)}>
                      Reject
                    </button>
                  </div>
                </div>
                <div id={panel} className="release-results" hidden={!expanded}>
                  {expanded && <RequestResults requestId={r.requestId} />}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <QueueFooter queue={queue} empty="There are no requests for release at the moment." what="requests for release" />
      {signing && (
        <SignatureDialog
          title={`Release the results of ${signing.controlNumber ?? `request ${signing.requestId}`}`}
          meaning={RELEASE_MEANING}
          signLabel="Sign and release"
          failureMessage="Failed to release request. Please try again."
          onSign={(password) => release(signing, password)}
          onClose={() => setSigning(null)}
        />
      )}
      {rejecting && (
        <RejectDialog
          subject={rejecting.controlNumber ?? `request ${rejecting.requestId}`}
          failureMessage="Failed to release request. Please try again."
          onReject={(reason) => reject(rejecting, reason)}
          onClose={() => setRejecting(null)}
        />
      )}
    </>
  );
}

/** The request's statement of conformity (the worst of its results' decisions), where any was judged. */
function RowConformity({ row }: { row: QueueRow }) {
  if (!row.conformity) return null;
  return (
    <span className="release-conformity">
      <span className="visually-hidden">Conformity: </span>
      <DecisionBadge outcome={row.conformity} />
    </span>
  );
}
