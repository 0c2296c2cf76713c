import { useState, type ReactNode } from 'react';
import type { QueueSort } from '../../../server/domain/queue.js';
import { DISCIPLINES } from '../../../server/domain/roles.js';
import { queuePath } from '../../api/queues.js';
import { DISCIPLINE_INFO } from '../../disciplines.js';
import { useQueue, type Queue } from '../../hooks/useQueue.js';
import { CsvExportLink } from './CsvExportLink.js';
import { QueueControls } from './QueueControls.js';

const DISCIPLINE_CHOICES = [{ value: '', label: 'All disciplines' }, ...DISCIPLINES.map((d) => ({ value: d, label: DISCIPLINE_INFO[d].name }))];

/**
 * A staff work queue (pending, for release) with its controls: search, discipline filter, three
 * sorts, and the CSV export of the filtered list. `what` names the list ('pending requests').
 */
export function useDeskQueue(name: 'pending' | 'for-release', searchWhat: string, what: string): { queue: Queue; controls: ReactNode } {
  const [q, setQ] = useState('');
  const [sort, setSort] = useState<QueueSort>('oldest');
  const [discipline, setDiscipline] = useState('');
  const params = { q: q || null, sort, discipline: discipline || null };
  const queue = useQueue(queuePath(name, params));
  const controls = (
    <QueueControls
      searchWhat={searchWhat}
      onSearch={setQ}
      sort={sort}
      sorts={['oldest', 'urgent', 'newest']}
      onSort={setSort}
      filter={{ label: 'Discipline', value: discipline, choices: DISCIPLINE_CHOICES, onChange: setDiscipline }}
    >
      <CsvExportLink path={`/requests/queue/${name}`} params={params} what={what} />
    </QueueControls>
  );
  return { queue, controls };
}
