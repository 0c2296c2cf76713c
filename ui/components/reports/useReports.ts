import { useCallback } from 'react';
import type { Group } from '../../../server/domain/catalog.js';
import type { GroupReport } from '../../../server/domain/reportShape.js';
import { getReport } from '../../api/reports.js';
import { useLoad, type Loaded } from '../../hooks/useLoad.js';

export type Reports = Partial<Record<Group, GroupReport>>;

/**
 * The monthly reports of `groups` for `year`, fetched together: 'loading' until every one has
 * arrived (the screens show 'Loading...' until then), then all of them.
 */
export function useReports(year: number, groups: readonly Group[]): Loaded<Reports> {
  // A stable key, so a new array with the same groups does not fetch again.
  const key = groups.join(',');
  return useLoad(
    useCallback(
      async (signal: AbortSignal) => {
        const wanted = key.split(',').filter(Boolean) as Group[];
        const reports = await Promise.all(wanted.map((g) => getReport(g, year, signal)));
        return Object.fromEntries(wanted.map((g, i) => [g, reports[i]])) as Reports;
      },
      [key, year],
    ),
  );
}
