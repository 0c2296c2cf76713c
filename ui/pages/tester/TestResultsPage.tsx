import { useCallback, useState } from 'react';
import type { Discipline } from '../../../server/domain/roles.js';
import { listRequestsIn, type ListedRequest } from '../../api/results.js';
import { Page } from '../../components/Page.js';
import { ResultDetails } from '../../components/testing/ResultDetails.js';
import { DISCIPLINE_INFO } from '../../disciplines.js';
import { logFailure, useLoad } from '../../hooks/useLoad.js';
import '../../styles/testing.css';

type ListName = 'for-release' | 'released';

const COLUMNS: ReadonlyArray<{ list: ListName; title: string; empty: string }> = [
  { list: 'for-release', title: 'For Release', empty: 'No requests for release at the moment.' },
  { list: 'released', title: 'Released', empty: 'No released requests at the moment.' },
];

/**
 * /test-results-{discipline}/{userId}: the requests with this discipline's tests awaiting release
 * and released; a control number expands its result details, one at a time.
 */
export function TestResultsPage({ discipline }: { discipline: Discipline }) {
  const info = DISCIPLINE_INFO[discipline];
  const state = useLoad(
    useCallback(async (signal: AbortSignal) => {
      const [forRelease, released] = await logFailure(
        'Could not load the result lists',
        signal,
        Promise.all([listRequestsIn('for-release', signal), listRequestsIn('released', signal)]),
      );
      return { 'for-release': forRelease, released } as Record<ListName, ListedRequest[]>;
    }, []),
  );
  const [open, setOpen] = useState<string | null>(null);

  return (
    <Page title="Test Results" documentTitle={`Test Results (${info.name})`} width="wide">
      {state.status === 'loading' && (
        <p className="empty" role="status">
          Loading...
        </p>
      )}
      <div className="results-columns">
        {COLUMNS.map(({ list, title, empty }) => {
          const requests = state.status === 'ready' ? state.data[list] : [];
          return (
            <section key={list} className="results-column" aria-labelledby={`${list}-title`}>
              <h2 id={`${list}-title`}>{title}</h2>
              {state.status === 'ready' && requests.length === 0 && <p className="empty">{empty}</p>}
              <ul className="results-list">
                {requests.map((r) => {
                  const key = `${list}-${r.requestId}`;
                  const expanded = open === key;
                  return (
                    <li key={r.requestId}>
                      <button
                        type="button"
                        className="button button-secondary results-toggle"
                        aria-expanded={expanded}
                        aria-controls={expanded ? `${key}-details` : undefined}
                        onClick={() => setOpen(expanded ? null : key)}
                      >
                        {r.controlNumber ?? `Request ${r.requestId}`}
                        <span aria-hidden="true">{expanded ? '▴' : '▾'}</span>
                      </button>
                      {expanded && <ResultDetails requestId={r.requestId} discipline={discipline} id={`${key}-details`} />}
                    </li>
                  );
                })}
              </ul>
            </section>
          );
        })}
      </div>
    </Page>
  );
}
