import { Fragment, useEffect, useId, useState, type ReactNode } from 'react';
import type { QueueSort } from '../../../server/domain/queue.js';

const SORT_LABELS: Record<QueueSort, string> = { oldest: 'Oldest first', urgent: 'Most urgent first', newest: 'Newest first' };

export interface QueueChoice {
  value: string;
  label: string;
}

export interface QueueControlsProps {
  /** What the search box searches, e.g. 'control number, company or lot'. */
  searchWhat: string;
  /** The search in force (kept in the address): the box starts with it and follows back/forward. */
  query?: string;
  onSearch: (q: string) => void;
  sort: QueueSort;
  sorts: readonly QueueSort[];
  /** Names of the sorts where the list's own words fit better (a client's 'urgent' is the expected date). */
  sortLabels?: Partial<Record<QueueSort, string>>;
  onSort: (sort: QueueSort) => void;
  /** A filter (status, work state, discipline): its label, choices and value. */
  filter?: { label: string; value: string; choices: readonly QueueChoice[]; onChange: (value: string) => void };
  /** A range of days (YYYY-MM-DD, either end open), e.g. of the release: what they are days of, and the range. */
  days?: { of: string; since: string; until: string; onChange: (range: { since: string; until: string }) => void };
  /** Extra controls at the end (e.g. the CSV export link). */
  children?: ReactNode;
}

/** Search (applied 300 ms after typing stops, or on Enter), sort and one filter above a work queue. */
export function QueueControls({ searchWhat, query = '', onSearch, sort, sorts, sortLabels, onSort, filter, days, children }: QueueControlsProps) {
  const id = useId();
  const [text, setText] = useState(query);
  // The search changed from outside (back, forward, a link): the box shows it.
  const [shownQuery, setShownQuery] = useState(query);
  if (shownQuery !== query) {
    setShownQuery(query);
    if (text.trim() !== query) setText(query);
  }
  useEffect(() => {
    const timer = setTimeout(() => onSearch(text.trim()), 300);
    return () => clearTimeout(timer);
  }, [text, onSearch]);
  return (
    <form className="queue-controls" role="search" onSubmit={(e) => (e.preventDefault(), onSearch(text.trim()))}>
      <label htmlFor={`${id}-q`}>
        Search <span className="visually-hidden">by {searchWhat}</span>
      </label>
      <input
        id={`${id}-q`}
        className="text-input"
        type="search"
        placeholder={searchWhat}
        value={text}
        maxLength={100}
        onChange={(e) => setText(e.target.value)}
      />
      {filter && (
        <>
          <label htmlFor={`${id}-filter`}>{filter.label}</label>
          <select id={`${id}-filter`} className="text-input" value={filter.value} onChange={(e) => filter.onChange(e.target.value)}>
            {filter.choices.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </>
      )}
      {days &&
        (['since', 'until'] as const).map((end) => (
          <Fragment key={end}>
            <label htmlFor={`${id}-${end}`}>{end === 'since' ? `${days.of} from` : 'to'}</label>
            <input
              id={`${id}-${end}`}
              className="text-input"
              type="date"
              value={days[end]}
              // Neither end passes the other.
              min={end === 'until' ? days.since || undefined : undefined}
              max={end === 'since' ? days.until || undefined : undefined}
              onChange={(e) => days.onChange({ since: days.since, until: days.until, [end]: e.target.value })}
            />
          </Fragment>
        ))}
      <label htmlFor={`${id}-sort`}>Sort</label>
      <select id={`${id}-sort`} className="text-input" value={sort} onChange={(e) => onSort(e.target.value as QueueSort)}>
        {sorts.map((s) => (
          <option key={s} value={s}>
            {sortLabels?.[s] ?? SORT_LABELS[s]}
          </option>
        ))}
      </select>
      {children}
    </form>
  );
}
