import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * A list's search, filters and sort, kept in the page's query string (`?q=2026-0012&sort=oldest`) so a
 * view can be bookmarked and shared, and back/forward restore it. A value equal to its default is left
 * out of the address; each change is a history entry. The page cursor is not kept: a link opens the
 * list's first page.
 */
export function useListParams<K extends string>(defaults: Readonly<Record<K, string>>): [Record<K, string>, (change: Partial<Record<K, string>>) => void] {
  const [search, setSearch] = useSearchParams();
  const values = useMemo(
    () => Object.fromEntries(Object.entries<string>(defaults).map(([key, fallback]) => [key, search.get(key) ?? fallback])) as Record<K, string>,
    [search, defaults],
  );
  const change = useCallback(
    (changes: Partial<Record<K, string>>) => {
      const next = new URLSearchParams(search);
      for (const [key, value] of Object.entries(changes) as [K, string | undefined][]) {
        if (value === undefined || value === defaults[key]) next.delete(key);
        else next.set(key, value);
      }
      // A search box settling on the text it already had is no new view.
      if (next.toString() !== search.toString()) setSearch(next);
    },
    [search, setSearch, defaults],
  );
  return [values, change];
}
