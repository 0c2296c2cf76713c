import { useCallback, useEffect, useState } from 'react';
import { getQueuePage, type QueueRow } from '../api/queues.js';
import type { Loaded } from './useLoad.js';

export interface Queue {
  /** The list's load ('ready' with every row loaded so far). */
  state: Loaded<QueueRow[]>;
  rows: QueueRow[];
  /** Whether a next page exists. */
  hasMore: boolean;
  loadingMore: boolean;
  /** The failure of the last "Show more", if it failed. */
  moreError: unknown;
  loadMore: () => void;
  /** Loads the list again from its first page. */
  retry: () => void;
  /** Replaces one row (after a save). */
  update: (requestId: number, row: QueueRow) => void;
}

interface Loads {
  /** Which load (path and attempt) this is the outcome of. */
  key: string;
  state: Loaded<QueueRow[]>;
  next: string | null;
  loadingMore: boolean;
  moreError: unknown;
}

/** A keyset-paged list from `path` (its first page), growing page by page with loadMore. */
export function useQueue(path: string): Queue {
  const [attempt, setAttempt] = useState(0);
  const key = `${attempt}:${path}`;
  const [loads, setLoads] = useState<Loads | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const settle = (state: Loaded<QueueRow[]>, next: string | null = null) => {
      if (!controller.signal.aborted) setLoads({ key, state, next, loadingMore: false, moreError: null });
    };
    getQueuePage(path, controller.signal).then(
      (page) => settle({ status: 'ready', data: page.rows }, page.next),
      (error: unknown) => settle({ status: 'error', error }),
    );
    return () => controller.abort();
  }, [path, key]);

  const current = loads?.key === key ? loads : null;
  const next = current?.next ?? null;
  const loadingMore = current?.loadingMore ?? false;

  const loadMore = useCallback(() => {
    if (!next || loadingMore) return;
    const patch = (change: Partial<Loads> | ((l: Loads) => Partial<Loads>)) =>
      setLoads((l) => (l && l.key === key ? { ...l, ...(typeof change === 'function' ? change(l) : change) } : l));
    patch({ loadingMore: true, moreError: null });
    getQueuePage(next).then(
      (page) =>
        patch((l) => ({
          state: l.state.status === 'ready' ? { status: 'ready', data: [...l.state.data, ...page.rows] } : l.state,
          next: page.next,
          loadingMore: false,
        })),
      (error: unknown) => patch({ moreError: error, loadingMore: false }),
    );
  }, [key, next, loadingMore]);

  const update = useCallback(
    (requestId: number, row: QueueRow) =>
      setLoads((l) =>
        l && l.state.status === 'ready' ? { ...l, state: { status: 'ready', data: l.state.data.map((r) => (r.requestId === requestId ? row : r)) } } : l,
      ),
    [],
  );

  const state: Loaded<QueueRow[]> = current?.state ?? { status: 'loading' };
  return {
    state,
    rows: state.status === 'ready' ? state.data : [],
    hasMore: next !== null,
    loadingMore,
    moreError: current?.moreError ?? null,
    loadMore,
    retry: () => setAttempt((n) => n + 1),
    update,
  };
}
