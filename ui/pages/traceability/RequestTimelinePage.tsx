import { useCallback } from 'react';
import { useParams } from 'react-router-dom';
import { getTimeline } from '../../api/traceability.js';
import { LoadStatus } from '../../components/LoadStatus.js';
import { Page } from '../../components/Page.js';
import { BackArrow } from '../../components/requests/BackArrow.js';
import { useLoad } from '../../hooks/useLoad.js';
import { useSession } from '../../session.js';
import '../../styles/traceability.css';

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'medium' });

/**
 * /request-timeline/{userId}/{requestId}: every event of a request from submission to release, in
 * order, with who did it. Staff see everything; the client its own request without the laboratory's
 * internal entries (the server decides).
 */
export function RequestTimelinePage() {
  const { userId = '', requestId = '' } = useParams();
  const { user } = useSession();
  const state = useLoad(useCallback((signal: AbortSignal) => getTimeline(requestId, signal), [requestId]));
  const back = user?.userType === 'client' ? `/track-my-request/${userId}` : `/request-details/${userId}/${requestId}`;
  const title = state.status === 'ready' && state.data.controlNumber ? `Timeline of ${state.data.controlNumber}` : 'Request Timeline';
  return (
    <Page title={title} width="wide">
      <BackArrow to={back} label={user?.userType === 'client' ? 'My requests' : 'Request details'} />
      <LoadStatus state={state} />
      {state.status === 'ready' && (
        <ol className="timeline" aria-label="Events">
          {state.data.events.map((e, i) => (
            <li key={i} className={`timeline-event timeline-${e.kind}`} data-kind={e.kind}>
              <p className="timeline-title">{e.title}</p>
              <p className="timeline-meta muted">
                <time dateTime={e.at}>{when(e.at)}</time>
                {e.actor && <> · {e.actor}</>}
              </p>
              {e.detail && <p className="timeline-detail">{e.detail}</p>}
              {e.before !== undefined && (
                <p className="timeline-detail">
                  Before: {e.before} → After: {e.after}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
    </Page>
  );
}
