import { useCallback } from 'react';
import { useParams } from 'react-router-dom';
import { getTimeline } from '../../api/traceability.js';
import { LoadStatus } from '../../components/LoadStatus.js';
import { Page } from '../../components/Page.js';
import { BackArrow } from '../../components/requests/BackArrow.js';
import { foldedSummary, groupTimeline } from '../../components/traceability/timelineGroups.js';
import { useLoad } from '../../hooks/useLoad.js';
import type { TimelineEvent } from '../../../server/domain/timeline.js';
import { useSession } from '../../session.js';
import '../../styles/traceability.css';

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'medium' });

function TimelineEntry({ event: e }: { event: TimelineEvent }) {
  return (
    <li className={`timeline-event timeline-${e.kind}`} data-kind={e.kind}>
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
  );
}

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
      {/* By day and phase; runs of routine entries (results written, mail sent) fold behind one line. */}
      {state.status === 'ready' &&
        groupTimeline(state.data.events).map((day) => (
          <section key={day.day} className="timeline-day" aria-label={day.day}>
            <h2 className="timeline-day-title">{day.day}</h2>
            {day.phases.map((group, p) => (
              <section key={p} className="timeline-phase" aria-label={`${group.phase}, ${day.day}`}>
                <h3 className="timeline-phase-title kicker">{group.phase}</h3>
                <ol className="timeline">
                  {group.items.map((item, i) =>
                    'event' in item ? (
                      <TimelineEntry key={i} event={item.event} />
                    ) : (
                      <li key={i} className="timeline-folded">
                        <details>
                          <summary>{foldedSummary(item.folded)}</summary>
                          <ol className="timeline">
                            {item.folded.map((e, j) => (
                              <TimelineEntry key={j} event={e} />
                            ))}
                          </ol>
                        </details>
                      </li>
                    ),
                  )}
                </ol>
              </section>
            ))}
          </section>
        ))}
    </Page>
  );
}
