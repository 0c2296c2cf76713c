import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { QueueSort } from '../../../server/domain/queue.js';
import type { Discipline } from '../../../server/domain/roles.js';
import { queuePath } from '../../api/queues.js';
import { Page } from '../../components/Page.js';
import { CsvExportLink } from '../../components/queue/CsvExportLink.js';
import { QueueControls } from '../../components/queue/QueueControls.js';
import { QueueFooter } from '../../components/queue/QueueFooter.js';
import { ResultDetails } from '../../components/testing/ResultDetails.js';
import { DISCIPLINE_INFO } from '../../disciplines.js';
import { useListParams } from '../../hooks/useListParams.js';
import { useQueue, type Queue } from '../../hooks/useQueue.js';
import '../../styles/testing.css';

/** Both columns read in the orders both lists offer (the released list by its release). */
const SORTS: readonly QueueSort[] = ['newest', 'oldest'];
const VIEW_DEFAULTS = { q: '', sort: 'newest', since: '', until: '' };
const SEARCH_WHAT = 'control number, company or lot';

/**
 * /test-results-{discipline}/{userId}: the discipline's requests awaiting release and released, each a
 * keyset page at a time ('Show more'), searched by control number, company or lot, within a range of
 * days (of the submission awaiting release, of the release once released), newest or oldest first;
 * the view lives in the address, and each column downloads its whole filtered list as CSV. A control
 * number expands its result details, one at a time; a released request's amended results are marked
 * (old and new reading, who, when, why), loaded as it opens.
 */
export function TestResultsPage({ discipline }: { discipline: Discipline }) {
  const info = DISCIPLINE_INFO[discipline];
  const [view, change] = useListParams(VIEW_DEFAULTS);
  const sort = SORTS.includes(view.sort as QueueSort) ? (view.sort as QueueSort) : 'newest';
  // The server keeps a tester to its discipline.
  const params = { q: view.q || null, sort, since: view.since || null, until: view.until || null };
  const forRelease = useQueue(queuePath('for-release', params));
  const released = useQueue(queuePath('released', params));
  const onSearch = useCallback((q: string) => change({ q }), [change]);
  const [open, setOpen] = useState<string | null>(null);
  const column = { discipline, open, onToggle: (key: string) => setOpen((current) => (current === key ? null : key)) };

  return (
    <Page title="Test Results" documentTitle={`Test Results (${info.name})`} width="wide">
      <QueueControls
        searchWhat={SEARCH_WHAT}
        query={view.q}
        onSearch={onSearch}
        sort={sort}
        sorts={SORTS}
        onSort={(s) => change({ sort: s })}
        days={{ of: 'Submitted or released', since: view.since, until: view.until, onChange: change }}
      />
      <p className="muted">For Release is filtered by the day of submission, Released by the day of release.</p>
      <div className="results-columns">
        <ResultsColumn
          {...column}
          list="for-release"
          title="For Release"
          empty="No requests for release at the moment."
          failure="Failed to fetch for release requests"
          queue={forRelease}
          csv={<CsvExportLink path="/requests/queue/for-release" params={params} what={`${info.name} requests for release`} />}
        />
        <ResultsColumn
          {...column}
          list="released"
          title="Released"
          empty="No released requests at the moment."
          failure="Failed to fetch released requests"
          queue={released}
          csv={<CsvExportLink path="/requests/queue/released" params={params} what={`released ${info.name} requests`} />}
        />
      </div>
    </Page>
  );
}

interface ColumnProps {
  discipline: Discipline;
  /** `{list}-{requestId}` of the expanded request, if any. */
  open: string | null;
  onToggle: (key: string) => void;
  list: 'for-release' | 'released';
  title: string;
  /** Shown when the list (as searched) has no request. */
  empty: string;
  /** What the console is told when the list fails (SPEC section 7's text); the column offers Retry. */
  failure: string;
  queue: Queue;
  csv: ReactNode;
}

/** One column of control numbers, paged; keyboard users go on from the first row 'Show more' added. */
function ResultsColumn({ discipline, open, onToggle, list, title, empty, failure, queue, csv }: ColumnProps) {
  const [focusIndex, setFocusIndex] = useState<number>();
  const failed = queue.state.status === 'error' ? queue.state.error : null;
  useEffect(() => {
    if (failed) console.error(failure, failed);
  }, [failed, failure]);
  const paged: Queue = {
    ...queue,
    loadMore: () => {
      setFocusIndex(queue.rows.length);
      queue.loadMore();
    },
  };
  return (
    <section className="results-column" aria-labelledby={`${list}-title`}>
      <h2 id={`${list}-title`}>{title}</h2>
      <p className="actions">{csv}</p>
      <ul className="results-list">
        {queue.rows.map((r, index) => {
          const key = `${list}-${r.requestId}`;
          const expanded = open === key;
          return (
            <li key={r.requestId}>
              <button
                type="button"
                className="button button-secondary results-toggle"
                aria-expanded={expanded}
                aria-controls={expanded ? `${key}-details` : undefined}
                autoFocus={index === focusIndex}
                onClick={() => onToggle(key)}
              >
                {r.controlNumber ?? `Request ${r.requestId}`}
                <span aria-hidden="true">{expanded ? '▴' : '▾'}</span>
              </button>
              <p className="muted results-meta break-anywhere">
                {r.companyName}
                {r.lotBatchNo && ` · Lot ${r.lotBatchNo}`}
                {r.releasedAt && ` · Released ${r.releasedAt.slice(0, 10)}`}
              </p>
              {expanded && <ResultDetails requestId={r.requestId} discipline={discipline} id={`${key}-details`} released={list === 'released'} />}
            </li>
          );
        })}
      </ul>
      <QueueFooter queue={paged} empty={empty} what={title === 'Released' ? 'released requests' : 'requests for release'} />
    </section>
  );
}
