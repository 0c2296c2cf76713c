// Answers repeated reads from memory while the data has not changed, on both engines: every entry
// carries the change versions read before it was computed (db/changeVersions.ts: numbers that
// triggers move on every commit that changes data, whichever instance or process makes it), and is
// used only while they are still current. So a reader never sees data older than the last commit,
// on this instance or any other. Session bookkeeping moves no data version, so it never makes
// answers stale.
import { LRUCache } from 'lru-cache';
import type { Config } from '../config.js';
import { openChangeCounter, type ChangeCounter, type ChangeCounterOptions } from '../db/changeCounter.js';
import { DAY_OF_READ, EARLIER_WINDOWS, earlierStatusKind, stampOf, statusKind, type ChangeKind, type Versions } from '../db/changeVersions.js';
import type { QueueSort } from '../domain/queue.js';
import type { RequestStatus } from '../domain/requestStatus.js';
import { DAY_MS } from '../domain/dates.js';

export { stampOf, type ChangeKind, type Versions } from '../db/changeVersions.js';

export interface ReadCache {
  /** The change versions now: read them before computing what you will `set`. */
  versions(): Promise<Versions>;
  /** The value stored under `key`, if nothing of the kinds it depends on changed since: `versions` are now. */
  get<T>(key: string, versions: Versions): T | undefined;
  /** Stores `value`, computed after reading `versions`, which depends on data of `kinds` and takes about `bytes` of memory. */
  set(key: string, kinds: readonly ChangeKind[], versions: Versions, value: unknown, bytes: number): void;
  /**
   * The same cache with the versions read once, at the first versions() call: for the lookups of
   * one API call, which all began after that read.
   */
  pinned(): ReadCache;
  /** Call after a write, before acknowledging it: resolves once every instance's next read shows it. */
  afterWrite(): Promise<void>;
  close(): Promise<void>;
}

/** What an answer depends on unless it says otherwise: any data a screen shows. */
export const ANY_DATA: readonly ChangeKind[] = ['data'];
/** What a session row depends on: its session and its user. */
export const SESSION_DATA: readonly ChangeKind[] = ['sessions', 'people'];
/** What a list of requests in `statuses` depends on: those requests and their rows, and the people it names. */
export const requestsIn = (statuses: readonly RequestStatus[]): readonly ChangeKind[] => [...statuses.map(statusKind), 'people'];

/**
 * What a page of a list of requests in `statuses` depends on, once computed at `versions`. A page in
 * the oldest-first order (by submission, or by release, which comes later) whose next page begins
 * with a request submitted before a window of work (db/changeVersions.ts EARLIER_WINDOWS) cannot
 * change by a write to a request submitted in the window: that request sorts after the page's rows
 * and after the row that keeps the next page there. So it depends only on the versions of the widest
 * such window, and the day's submissions, approvals and results on requests within it leave it
 * valid. One day of margin: the day of a write is its statement's, and a transaction never lasts a
 * day. Any other page depends on every change of its statuses.
 */
export function pageKinds(statuses: readonly RequestStatus[], page: { sort: QueueSort; followingKey?: string }, versions: Versions): readonly ChangeKind[] {
  const day = versions[DAY_OF_READ];
  if (page.sort !== 'oldest' || page.followingKey === undefined || day === undefined) return requestsIn(statuses);
  const { followingKey } = page;
  const opens = (days: number) => new Date((day - days - 1) * DAY_MS).toISOString().slice(0, 10);
  const window = EARLIER_WINDOWS.findLast((w) => followingKey < opens(w.days));
  return window ? [...statuses.map((status) => earlierStatusKind(status, window)), 'people'] : requestsIn(statuses);
}

export interface ReadCacheLimits {
  /** Memory the entries may take together; the least recently used go first. */
  maxBytes: number;
  /** An entry older than this is not used (bounds anything that depends on the time of day). */
  maxAgeMs: number;
}

const DEFAULT_LIMITS: ReadCacheLimits = { maxBytes: 64 * 1024 * 1024, maxAgeMs: 30_000 };

interface Entry {
  kinds: readonly ChangeKind[];
  stamp: string;
  value: unknown;
  bytes: number;
}

/** The cache over a change counter (exported for tests, which drive the counter themselves). */
export function readCacheOver(counter: ChangeCounter, limits: ReadCacheLimits = DEFAULT_LIMITS): ReadCache {
  const entries = new LRUCache<string, Entry>({
    maxSize: limits.maxBytes,
    maxEntrySize: limits.maxBytes / 4,
    sizeCalculation: (entry) => Math.max(1, entry.bytes),
    ttl: limits.maxAgeMs,
    // The clock read through performance.now on every call, so tests' fake timers move it.
    ttlResolution: 0,
    perf: { now: () => performance.now() },
  });
  const cache: ReadCache = {
    versions: () => counter.read(),
    get<T>(key: string, versions: Versions): T | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.stamp === stampOf(versions, entry.kinds)) return entry.value as T;
      // Stale: dropped, never revived by a caller still holding the old versions.
      entries.delete(key);
      return undefined;
    },
    set(key, kinds, versions, value, bytes) {
      entries.set(key, { kinds, stamp: stampOf(versions, kinds), value, bytes });
    },
    pinned() {
      let versions: Promise<Versions> | undefined;
      return { ...cache, versions: () => (versions ??= counter.read()) };
    },
    afterWrite: () => counter.afterWrite(),
    close: () => counter.close(),
  };
  return cache;
}

/** The read cache of the database `db` opened with `database`. */
export async function createReadCache(database: Config['database'], options: ChangeCounterOptions & { limits?: ReadCacheLimits } = {}): Promise<ReadCache> {
  return readCacheOver(await openChangeCounter(database, options), options.limits);
}
