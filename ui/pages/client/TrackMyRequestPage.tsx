import { useCallback } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { findAnalyte } from '../../../server/domain/catalog.js';
import { QUEUE_SORTS, QUEUE_STATUSES, type QueueSort } from '../../../server/domain/queue.js';
import { STATUS_DISPLAY, type RequestStatus } from '../../../server/domain/requestStatus.js';
import { getClientStatusCounts, queuePath, type QueueRow } from '../../api/queues.js';
import { DragScrollList } from '../../components/DragScrollList.js';
import { Page } from '../../components/Page.js';
import { CsvExportLink } from '../../components/queue/CsvExportLink.js';
import { QueueControls } from '../../components/queue/QueueControls.js';
import { QueueFooter } from '../../components/queue/QueueFooter.js';
import { formatDay, formatTimestampDay } from '../../components/requests/format.js';
import { useLoad } from '../../hooks/useLoad.js';
import { useListParams } from '../../hooks/useListParams.js';
import { useQueue } from '../../hooks/useQueue.js';
import '../../styles/client.css';
import '../../styles/queue.css';

const VIEW_DEFAULTS = { q: '', sort: 'newest', status: '' };

/** A RELEASED request opens its results, any other its review (SPEC section 2). */
function targetOf(userId: string, r: QueueRow): string {
  return r.requestStatus === 'RELEASED' ? `/request-results/${userId}/${r.requestId}` : `/request-review/${userId}/${r.requestId}`;
}

const testLabels = (codes: readonly string[]) => codes.map((c) => findAnalyte(c)?.label ?? c).join(', ');

/** The status filter's choices, each with how many requests it shows (once the counts arrive). */
function statusChoices(counts: Record<RequestStatus, number> | null) {
  const n = (count: number | undefined) => (count === undefined ? '' : ` (${count})`);
  const total = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : undefined;
  return [
    { value: '', label: `All statuses${n(total)}` },
    ...QUEUE_STATUSES.client.map((s) => ({ value: s, label: `${STATUS_DISPLAY[s]}${n(counts?.[s])}` })),
  ];
}

/**
 * /track-my-request/{userId}: the client's requests a page at a time, newest first unless sorted
 * otherwise, searchable by control number or lot and filtered by status (with counts); a row opens
 * its results or review. The list grows with the page, so the page scrolls as usual; dragging it
 * still scrolls (SPEC's hint).
 */
export function TrackMyRequestPage() {
  const { userId = '' } = useParams();
  const navigate = useNavigate();
  // The view lives in the address: bookmarkable, restored by back/forward.
  const [view, changeView] = useListParams(VIEW_DEFAULTS);
  const { q, status } = view;
  const sort = (QUEUE_SORTS.includes(view.sort as QueueSort) ? view.sort : 'newest') as QueueSort;
  const setQ = useCallback((text: string) => changeView({ q: text }), [changeView]);
  const listParams = { q: q || null, sort, status: status || null };
  const queue = useQueue(queuePath({ client: userId }, listParams));
  const counts = useLoad(useCallback((signal: AbortSignal) => getClientStatusCounts(userId, q, signal), [userId, q]));
  const filtered = q !== '' || status !== '';

  return (
    <Page title="Track My Request" note="Drag the sides of the container to scroll!" width="wide">
      <QueueControls
        searchWhat="control number or lot"
        query={q}
        onSearch={setQ}
        sort={sort}
        sorts={['newest', 'oldest', 'urgent']}
        sortLabels={{ urgent: 'Expected date first' }}
        onSort={(s) => changeView({ sort: s })}
        filter={{ label: 'Status', value: status, choices: statusChoices(counts.status === 'ready' ? counts.data : null), onChange: (s) => changeView({ status: s }) }}
      >
        <CsvExportLink path={`/requests/queue/client/${userId}`} params={listParams} what="requests" />
      </QueueControls>
      {queue.rows.length > 0 && (
        <DragScrollList className="track-list">
          <table>
            <thead>
              <tr>
                <th scope="col">Control Number</th>
                <th scope="col">Submission Date</th>
                <th scope="col">Status</th>
                <th scope="col">Lot</th>
                <th scope="col">Tests</th>
                <th scope="col">Expected Date</th>
              </tr>
            </thead>
            <tbody>
              {queue.rows.map((r) => (
                <tr
                  key={r.requestId}
                  className={`track-row status-${r.requestStatus.toLowerCase()}`}
                  // The whole row opens the request for a mouse; the link in it serves the keyboard.
                  onClick={(e) => {
                    if (!(e.target instanceof Element && e.target.closest('a'))) navigate(targetOf(userId, r));
                  }}
                >
                  <td>
                    <Link to={targetOf(userId, r)}>
                      {r.controlNumber ?? 'Not yet assigned'}
                      <span className="visually-hidden">
                        {' '}
                        ({r.requestStatus === 'RELEASED' ? 'results' : 'review'} of the request of {formatTimestampDay(r.submissionDate)})
                      </span>
                    </Link>
                  </td>
                  <td>{formatTimestampDay(r.submissionDate)}</td>
                  <td>
                    <span className="status">{STATUS_DISPLAY[r.requestStatus] ?? r.requestStatus}</span>
                    {r.requestStatus === 'REJECTED' && r.rejectionReason && (
                      <p className="rejection-reason break-anywhere">Reason: {r.rejectionReason}</p>
                    )}
                  </td>
                  <td className="break-anywhere">{r.lotBatchNo ?? '—'}</td>
                  <td className="track-tests">{testLabels(r.tests)}</td>
                  {/* A rejected request will not be done: no expected date (the server sends none). */}
                  <td>{formatDay(r.dueDate) ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </DragScrollList>
      )}
      <QueueFooter
        queue={queue}
        empty={filtered ? 'No request matches this search and status.' : 'You have no ongoing requests and results.'}
        what="requests"
      />
    </Page>
  );
}
