import { useCallback, useEffect, useState } from 'react';
import { getQueuePage, type QueueRow } from '../api/queues.js';
import type { Loaded } from './useLoad.js';

export interface Queue<T = QueueRow> {
  /** The list's load ('ready' with every row loaded so far). */
  state: Loaded<T[]>;
  rows: T[];
  /** Rows in the whole list, when the list tells it; else null. */
  total: number | null;
  /** Whether a next page exists. */
  hasMore: boolean;
  loadingMore: boolean;
  /** The failure of the last "Show more", if it failed. */
  moreError: unknown;
  loadMore: () => void;
  /** Loads the list again from its first page. */
  retry: () => void;
  /** Replaces the row of a request (after a save). */
  update: (requestId: number, row: T) => void;
  /** Another first page (a new search, sort or filter, or a retry) is loading: the rows are the last list's. */
  refreshing: boolean;
}

interface Loads<T> {
  /** Which load (path and attempt) this is the outcome of. */
  key: string;
  state: Loaded<T[]>;
  next: string | null;
  total: number | null;
  loadingMore: boolean;
  moreError: unknown;
}

/** A keyset-paged list from `path` (its first page; a work queue's rows unless told), growing page by page with loadMore. */
export function useQueue<T extends object = QueueRow>(path: string): Queue<T> {
  const [attempt, setAttempt] = useState(0);
  const key = `${attempt}:${path}`;
  const [loads, setLoads] = useState<Loads<T> | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const settle = (state: Loaded<T[]>, next: string | null = null, total: number | null = null) => {
      if (!controller.signal.aborted) setLoads({ key, state, next, total, loadingMore: false, moreError: null });
    };
    getQueuePage<T>(path, controller.signal).then(
      (page) => settle({ status: 'ready', data: page.rows }, page.next, page.total),
      (error: unknown) => settle({ status: 'error', error }),
    );
    return () => controller.abort();
  }, [path, key]);

  // While another first page loads, the last list stays on screen: a row the user has opened (its
  // entries, a question it asks) is not torn down under their hands by a search they typed.
  const current = loads?.key === key ? loads : loads?.state.status === 'ready' ? { ...loads, next: null, loadingMore: false } : null;
  const refreshing = current !== null && current.key !== key;
  const next = current?.next ?? null;
  const loadingMore = current?.loadingMore ?? false;

  const loadMore = useCallback(() => {
    if (!next || loadingMore) return;
    const patch = (change: Partial<Loads<T>> | ((l: Loads<T>) => Partial<Loads<T>>)) =>
      setLoads((l) => (l && l.key === key ? { ...l, ...(typeof change === 'function' ? change(l) : change) } : l));
    patch({ loadingMore: true, moreError: null });
    getQueuePage<T>(next).then(
      (page) =>
        patch((l) => ({
          state: l.state.status === 'ready' ? { status: 'ready', data: [...l.state.data, ...page.rows] } : l.state,
          next: page.next,
          total: page.total,
          loadingMore: false,
        })),
      (error: unknown) => patch({ moreError: error, loadingMore: false }),
    );
  }, [key, next, loadingMore]);

  const update = useCallback(
    (requestId: number, row: T) =>
      setLoads((l) =>
        l && l.state.status === 'ready' ? { ...l, state: { status: 'ready', data: l.state.data.map((r) => ('requestId' in r && r.requestId === requestId ? row : r)) } } : l,
      ),
    [],
  );

  const state: Loaded<T[]> = current?.state ?? { status: 'loading' };
  return {
    state,
    rows: state.status === 'ready' ? state.data : [],
    total: current?.total ?? null,
    hasMore: next !== null,
    loadingMore,
    moreError: current?.moreError ?? null,
    loadMore,
    retry: () => setAttempt((n) => n + 1),
    update,
    refreshing,
  };
}
