// Answers repeated reads from memory while the database has not changed: every
// entry carries the change counter read before it was computed, and is used only while the counter
// still says the same. Any commit, from this process or another, makes every entry stale at once, so
// a reader never sees data older than the last commit. Only for SQLite: on PostgreSQL several servers
// write without this one's counter knowing, so there is no cache (createReadCache answers undefined).
import type { Config } from '../config.js';
import { openChangeCounter, type ChangeCounter } from '../db/changeCounter.js';

export interface ReadCache {
  /** The database's change counter now: read it before computing what you will `set`. */
  version(): Promise<number>;
  /** The value stored under `key` at `version`, if any. */
  get<T>(key: string, version: number): T | undefined;
  /** Stores `value`, which takes about `bytes` of memory, as read at `version`. */
  set(key: string, version: number, value: unknown, bytes: number): void;
  /**
   * The same cache with the counter read once, at the first version() call: for the lookups of one
   * API call, which all began after that read. Reading the counter is a read transaction on its own
   * connection (file locks), the largest cost of a cached answer when read twice per call.
   */
  pinned(): ReadCache;
  close(): Promise<void>;
}

export interface ReadCacheLimits {
  /** Memory the entries may take together; the least recently used go first. */
  maxBytes: number;
  /** An entry older than this is not used (bounds anything that depends on the time of day). */
  maxAgeMs: number;
}

const DEFAULT_LIMITS: ReadCacheLimits = { maxBytes: 64 * 1024 * 1024, maxAgeMs: 30_000 };

interface Entry {
  version: number;
  value: unknown;
  bytes: number;
  storedAt: number;
}

/** The cache over a change counter (exported for tests, which drive the counter themselves). */
export function readCacheOver(counter: ChangeCounter, limits: ReadCacheLimits = DEFAULT_LIMITS): ReadCache {
  // A Map iterates in insertion order; a hit is re-inserted, so the first entries are the least recently used.
  const entries = new Map<string, Entry>();
  let total = 0;
  const drop = (key: string, entry: Entry) => {
    entries.delete(key);
    total -= entry.bytes;
  };
  const cache: ReadCache = {
    version: () => counter.read(),
    get<T>(key: string, version: number): T | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      drop(key, entry);
      if (entry.version !== version || performance.now() - entry.storedAt > limits.maxAgeMs) return undefined;
      entries.set(key, entry);
      total += entry.bytes;
      return entry.value as T;
    },
    set(key, version, value, bytes) {
      const old = entries.get(key);
      if (old) drop(key, old);
      if (bytes > limits.maxBytes / 4) return;
      entries.set(key, { version, value, bytes, storedAt: performance.now() });
      total += bytes;
      for (const [oldest, entry] of entries) {
        if (total <= limits.maxBytes) break;
        drop(oldest, entry);
      }
    },
    pinned() {
      let version: Promise<number> | undefined;
      return { ...cache, version: () => (version ??= counter.read()) };
    },
    close: () => counter.close(),
  };
  return cache;
}

/** A read cache for `database`, or undefined where there must be none (PostgreSQL). */
export async function createReadCache(database: Config['database'], limits?: ReadCacheLimits): Promise<ReadCache | undefined> {
  if (database.client !== 'sqlite3') return undefined;
  return readCacheOver(await openChangeCounter(database.filename), limits);
}
