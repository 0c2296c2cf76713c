// The read cache's own rules, over a change counter the test moves by hand.
import { describe, expect, it, vi } from 'vitest';
import { ANY_DATA, SESSION_DATA, readCacheOver, requestsIn, type ChangeKind } from '../../server/services/readCache.js';

function counter() {
  const versions: Record<string, number> = {};
  return {
    bump: (...kinds: ChangeKind[]) => kinds.forEach((k) => (versions[k] = (versions[k] ?? 0) + 1)),
    read: async () => ({ ...versions }),
    afterWrite: async () => undefined,
    close: async () => undefined,
  };
}

describe('read cache', () => {
  it('answers an entry only while nothing of its kinds changed', async () => {
    const changes = counter();
    const cache = readCacheOver(changes, { maxBytes: 1000, maxAgeMs: 60_000 });
    const read = await cache.versions();
    cache.set('k', ANY_DATA, read, 'value', 10);
    expect(cache.get('k', await cache.versions())).toBe('value');
    changes.bump('data');
    expect(cache.get('k', await cache.versions())).toBeUndefined();
    // A stale entry is dropped, not revived when asked with the old versions.
    expect(cache.get('k', read)).toBeUndefined();
  });

  it('keeps a list of one status while requests of other statuses change', async () => {
    const changes = counter();
    const cache = readCacheOver(changes, { maxBytes: 1000, maxAgeMs: 60_000 });
    cache.set('pending', requestsIn(['PENDING_REVIEW']), await cache.versions(), 'list', 10);
    changes.bump('data', 'status:FOR_TESTING', 'status:RELEASED');
    expect(cache.get('pending', await cache.versions())).toBe('list');
    changes.bump('data', 'status:PENDING_REVIEW');
    expect(cache.get('pending', await cache.versions())).toBeUndefined();
    cache.set('pending', requestsIn(['PENDING_REVIEW']), await cache.versions(), 'list', 10);
    changes.bump('people');
    expect(cache.get('pending', await cache.versions())).toBeUndefined();
  });

  it('keeps answers when only sessions change, and session rows while sessions and people do not', async () => {
    const changes = counter();
    const cache = readCacheOver(changes, { maxBytes: 1000, maxAgeMs: 60_000 });
    cache.set('answer', ANY_DATA, await cache.versions(), 'list', 10);
    cache.set('session', SESSION_DATA, await cache.versions(), 'row', 10);
    changes.bump('sessions');
    expect(cache.get('answer', await cache.versions())).toBe('list');
    expect(cache.get('session', await cache.versions())).toBeUndefined();
    cache.set('session', SESSION_DATA, await cache.versions(), 'row', 10);
    changes.bump('data', 'status:FOR_TESTING');
    expect(cache.get('session', await cache.versions())).toBe('row');
    // A session row carries its user.
    changes.bump('data', 'people');
    expect(cache.get('session', await cache.versions())).toBeUndefined();
  });

  it('reads the counter once for the lookups of one call (pinned), and afresh for the next call', async () => {
    const changes = counter();
    const read = vi.spyOn(changes, 'read');
    const cache = readCacheOver(changes, { maxBytes: 1000, maxAgeMs: 60_000 });
    const call = cache.pinned();
    const first = await call.versions();
    changes.bump('data');
    expect(await call.versions()).toEqual(first);
    expect(read).toHaveBeenCalledTimes(1);
    // Entries are shared with the cache it was pinned from.
    call.set('k', ANY_DATA, first, 'value', 10);
    expect(cache.get('k', first)).toBe('value');
    expect(cache.get('k', await cache.pinned().versions())).toBeUndefined();
  });

  it('drops the least recently used entries when they take more than maxBytes', () => {
    const cache = readCacheOver(counter(), { maxBytes: 100, maxAgeMs: 60_000 });
    const at = {};
    cache.set('a', ANY_DATA, at, 'A', 25);
    cache.set('b', ANY_DATA, at, 'B', 25);
    cache.set('c', ANY_DATA, at, 'C', 25);
    expect(cache.get('a', at)).toBe('A'); // now b is the least recently used
    cache.set('d', ANY_DATA, at, 'D', 25);
    cache.set('e', ANY_DATA, at, 'E', 25);
    expect(cache.get('b', at)).toBeUndefined();
    expect(['a', 'c', 'd', 'e'].map((k) => cache.get(k, at))).toEqual(['A', 'C', 'D', 'E']);
  });

  it('never keeps an entry larger than a quarter of maxBytes', () => {
    const cache = readCacheOver(counter(), { maxBytes: 100, maxAgeMs: 60_000 });
    cache.set('big', ANY_DATA, {}, 'B', 26);
    expect(cache.get('big', {})).toBeUndefined();
  });

  it('does not answer an entry older than maxAgeMs', () => {
    vi.useFakeTimers();
    try {
      const cache = readCacheOver(counter(), { maxBytes: 100, maxAgeMs: 1_000 });
      // Fake time starts at 0, which lru-cache takes for "no start time".
      vi.advanceTimersByTime(5_000);
      cache.set('k', ANY_DATA, {}, 'value', 1);
      vi.advanceTimersByTime(999);
      expect(cache.get('k', {})).toBe('value');
      vi.advanceTimersByTime(2);
      expect(cache.get('k', {})).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
