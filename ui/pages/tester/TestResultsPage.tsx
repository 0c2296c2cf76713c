import { useCallback, useState, type ReactNode } from 'react';
import type { RequestListRow, ReleasedRow } from '../../../server/domain/requestShape.js';
import type { Discipline } from '../../../server/domain/roles.js';
import { listForRelease, listReleased, type ListPage } from '../../api/desk.js';
import { Page } from '../../components/Page.js';
import { CsvExportLink } from '../../components/queue/CsvExportLink.js';
import { ResultDetails } from '../../components/testing/ResultDetails.js';
import { DISCIPLINE_INFO } from '../../disciplines.js';
import { failureText, logFailure, useLoad } from '../../hooks/useLoad.js';
import '../../styles/testing.css';

/**
 * /test-results-{discipline}/{userId}: the requests with this discipline's tests awaiting release
 * (all of them) and released (newest first, a page at a time with 'Show more'); a control number
 * expands its result details, one at a time.
 */
export function TestResultsPage({ discipline }: { discipline: Discipline }) {
  const info = DISCIPLINE_INFO[discipline];
  const state = useLoad(
    useCallback(async (signal: AbortSignal) => {
      // The failure texts SPEC section 7 gives these two calls (logged; the screen shows its error line).
      const [forRelease, released] = await Promise.all([
        logFailure('Failed to fetch for release requests', signal, listForRelease(signal)),
        logFailure('Failed to fetch released requests', signal, listReleased(0, signal)),
      ]);
      return { forRelease, released };
    }, []),
  );
  const [open, setOpen] = useState<string | null>(null);
  const column = { discipline, open, onToggle: (key: string) => setOpen((current) => (current === key ? null : key)) };

  return (
    <Page title="Test Results" documentTitle={`Test Results (${info.name})`} width="wide">
      {state.status === 'loading' && (
        <p className="empty" role="status">
          Loading...
        </p>
      )}
      {/* Each whole list of this discipline as a spreadsheet (the server keeps a tester to its discipline). */}
      <p className="actions">
        <CsvExportLink path="/requests/queue/for-release" params={{}} what={`${info.name} requests for release`} />
        <CsvExportLink path="/requests/queue/released" params={{}} what={`released ${info.name} requests`} />
      </p>
      <div className="results-columns">
        {state.status === 'ready' ? (
          <>
            <ResultsColumn {...column} list="for-release" title="For Release" empty="No requests for release at the moment." requests={state.data.forRelease} />
            <ReleasedColumn {...column} firstPage={state.data.released} />
          </>
        ) : (
          // SPEC section 8: a failed list is only logged; the screen stays empty.
          <>
            <ResultsColumn {...column} list="for-release" title="For Release" requests={[]} />
            <ResultsColumn {...column} list="released" title="Released" requests={[]} />
          </>
        )}
      </div>
    </Page>
  );
}

interface ColumnProps {
  discipline: Discipline;
  /** `{list}-{requestId}` of the expanded request, if any. */
  open: string | null;
  onToggle: (key: string) => void;
}

/** One column of control numbers. `empty` shows when the loaded list has none; `focusId` takes the focus when its row appears. */
function ResultsColumn({
  discipline,
  open,
  onToggle,
  list,
  title,
  empty,
  requests,
  focusId,
  children,
}: ColumnProps & { list: 'for-release' | 'released'; title: string; empty?: string; requests: RequestListRow[]; focusId?: number; children?: ReactNode }) {
  return (
    <section className="results-column" aria-labelledby={`${list}-title`}>
      <h2 id={`${list}-title`}>{title}</h2>
      {empty && requests.length === 0 && <p className="empty">{empty}</p>}
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
                // Keyboard users continue from the first row 'Show more' added.
                autoFocus={r.requestId === focusId}
                onClick={() => onToggle(key)}
              >
                {r.controlNumber ?? `Request ${r.requestId}`}
                <span aria-hidden="true">{expanded ? '▴' : '▾'}</span>
              </button>
              {expanded && <ResultDetails requestId={r.requestId} discipline={discipline} id={`${key}-details`} />}
            </li>
          );
        })}
      </ul>
      {children}
    </section>
  );
}

/** The released requests: the first page, and the next ones on 'Show more'. */
function ReleasedColumn({ firstPage, ...column }: ColumnProps & { firstPage: ListPage<ReleasedRow> }) {
  const [shown, setShown] = useState(firstPage);
  const [focusId, setFocusId] = useState<number>();
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function showMore() {
    if (loading) return;
    setLoading(true);
    setFailure(null);
    try {
      const next = await listReleased(shown.rows.length);
      // Requests released meanwhile push the list down: rows already shown come again and are skipped.
      const known = new Set(shown.rows.map((r) => r.requestId));
      const added = next.rows.filter((r) => !known.has(r.requestId));
      setShown({ rows: [...shown.rows, ...added], total: next.total });
      setFocusId(added[0]?.requestId);
    } catch (error) {
      console.error('Could not load more released requests', error);
      setFailure(failureText(error));
    } finally {
      setLoading(false);
    }
  }

  const more = shown.rows.length < shown.total;
  return (
    <ResultsColumn {...column} list="released" title="Released" empty="No released requests at the moment." requests={shown.rows} focusId={focusId}>
      {shown.rows.length > 0 && (
        <p className="muted results-count">
          Showing {shown.rows.length.toLocaleString('en-US')} of {shown.total.toLocaleString('en-US')}
        </p>
      )}
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      {more && (
        <button type="button" className="button button-secondary" aria-disabled={loading} onClick={() => void showMore()}>
          {loading ? 'Loading...' : 'Show more'}
        </button>
      )}
    </ResultsColumn>
  );
}
