import { useCallback, type ReactNode } from 'react';
import { LIST_SORTS, type QueueSort } from '../../../server/domain/queue.js';
import { DISCIPLINES } from '../../../server/domain/roles.js';
import { queuePath } from '../../api/queues.js';
import { DISCIPLINE_INFO } from '../../disciplines.js';
import { useListParams } from '../../hooks/useListParams.js';
import { useQueue, type Queue } from '../../hooks/useQueue.js';
import { CsvExportLink } from './CsvExportLink.js';
import { QueueControls } from './QueueControls.js';

const DISCIPLINE_CHOICES = [{ value: '', label: 'All disciplines' }, ...DISCIPLINES.map((d) => ({ value: d, label: DISCIPLINE_INFO[d].name }))];

type DeskList = 'pending' | 'for-release' | 'released';

// Stable objects: the address keeps only what differs from them.
const DEFAULTS: Record<DeskList, { q: string; sort: string; discipline: string; since: string; until: string }> = {
  pending: { q: '', sort: LIST_SORTS.pending.first, discipline: '', since: '', until: '' },
  'for-release': { q: '', sort: LIST_SORTS['for-release'].first, discipline: '', since: '', until: '' },
  released: { q: '', sort: LIST_SORTS.released.first, discipline: '', since: '', until: '' },
};

const RELEASE_SORT_LABELS = { newest: 'Latest release first', oldest: 'Earliest release first' };

/**
 * A staff list (pending, for release, released) with its controls: search, discipline filter, the
 * list's sorts, a range of days (of the release on the released list, else of the submission), and
 * the CSV download of the whole filtered list. All of it lives in the address (useListParams).
 * `what` names the list ('pending requests').
 */
export function useDeskQueue(name: DeskList, searchWhat: string, what: string): { queue: Queue; controls: ReactNode } {
  const [view, change] = useListParams(DEFAULTS[name]);
  const { sorts, first } = LIST_SORTS[name];
  // A sort the list does not offer (an edited address) reads as the list's own.
  const sort = sorts.includes(view.sort as QueueSort) ? (view.sort as QueueSort) : first;
  const params = { q: view.q || null, sort, discipline: view.discipline || null, since: view.since || null, until: view.until || null };
  const queue = useQueue(queuePath(name, params));
  const onSearch = useCallback((q: string) => change({ q }), [change]);
  const controls = (
    <QueueControls
      searchWhat={searchWhat}
      query={view.q}
      onSearch={onSearch}
      sort={sort}
      sorts={sorts}
      sortLabels={name === 'released' ? RELEASE_SORT_LABELS : undefined}
      onSort={(s) => change({ sort: s })}
      filter={{ label: 'Discipline', value: view.discipline, choices: DISCIPLINE_CHOICES, onChange: (discipline) => change({ discipline }) }}
      days={{ of: name === 'released' ? 'Released' : 'Submitted', since: view.since, until: view.until, onChange: change }}
    >
      <CsvExportLink path={`/requests/queue/${name}`} params={params} what={what} />
    </QueueControls>
  );
  return { queue, controls };
}
