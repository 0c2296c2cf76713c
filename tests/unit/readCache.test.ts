// The read cache's own rules, over a change counter the test moves by hand.
import { describe, expect, it, vi } from 'vitest';
import { answerStamp, readCacheOver, sessionStamp } from '../../server/services/readCache.js';

function counter() {
  const versions = { data: 1, sessions: 1 };
  return {
    bump: (kind: 'data' | 'sessions' = 'data') => (versions[kind] += 1),
    read: async () => ({ ...versions }),
    close: async () => undefined,
  };
}

describe('read cache', () => {
  it('answers an entry only at the stamp it was stored at', async () => {
    const changes = counter();
    const cache = readCacheOver(changes, { maxBytes: 1000, maxAgeMs: 60_000 });
    const stamp = answerStamp(await cache.versions());
    cache.set('k', stamp, 'value', 10);
    expect(cache.get('k', answerStamp(await cache.versions()))).toBe('value');
    changes.bump();
    expect(cache.get('k', answerStamp(await cache.versions()))).toBeUndefined();
    // A stale entry is dropped, not revived when asked at its old stamp.
    expect(cache.get('k', stamp)).toBeUndefined();
  });

  it('keeps answers when only sessions change, and session rows when nothing does', async () => {
    const changes = counter();
    const cache = readCacheOver(changes, { maxBytes: 1000, maxAgeMs: 60_000 });
    const before = await cache.versions();
    cache.set('answer', answerStamp(before), 'list', 10);
    cache.set('session', sessionStamp(before), 'row', 10);
    changes.bump('sessions');
    const after = await cache.versions();
    expect(cache.get('answer', answerStamp(after))).toBe('list');
    expect(cache.get('session', sessionStamp(after))).toBeUndefined();
    // A session row carries its user: a data change makes it stale too.
    cache.set('session', sessionStamp(after), 'row', 10);
    changes.bump('data');
    expect(cache.get('session', sessionStamp(await cache.versions()))).toBeUndefined();
  });

  it('reads the counter once for the lookups of one call (pinned), and afresh for the next call', async () => {
    const changes = counter();
    const read = vi.spyOn(changes, 'read');
    const cache = readCacheOver(changes, { maxBytes: 1000, maxAgeMs: 60_000 });
    const call = cache.pinned();
    const first = await call.versions();
    changes.bump();
    expect(await call.versions()).toEqual(first);
    expect(read).toHaveBeenCalledTimes(1);
    // Entries are shared with the cache it was pinned from.
    call.set('k', answerStamp(first), 'value', 10);
    expect(cache.get('k', answerStamp(first))).toBe('value');
    expect((await cache.pinned().versions()).data).toBe(first.data + 1);
  });

  it('drops the least recently used entries when they take more than maxBytes', () => {
    const cache = readCacheOver(counter(), { maxBytes: 100, maxAgeMs: 60_000 });
    cache.set('a', '1', 'A', 25);
    cache.set('b', '1', 'B', 25);
    cache.set('c', '1', 'C', 25);
    expect(cache.get('a', '1')).toBe('A'); // now b is the least recently used
    cache.set('d', '1', 'D', 25);
    cache.set('e', '1', 'E', 25);
    expect(cache.get('b', '1')).toBeUndefined();
    expect(['a', 'c', 'd', 'e'].map((k) => cache.get(k, '1'))).toEqual(['A', 'C', 'D', 'E']);
  });

  it('never keeps an entry larger than a quarter of maxBytes', () => {
    const cache = readCacheOver(counter(), { maxBytes: 100, maxAgeMs: 60_000 });
    cache.set('big', '1', 'B', 26);
    expect(cache.get('big', '1')).toBeUndefined();
  });

  it('does not answer an entry older than maxAgeMs', () => {
    vi.useFakeTimers();
    try {
      const cache = readCacheOver(counter(), { maxBytes: 100, maxAgeMs: 1_000 });
      // Fake time starts at 0, which lru-cache takes for "no start time".
      vi.advanceTimersByTime(5_000);
      cache.set('k', '1', 'value', 1);
      vi.advanceTimersByTime(999);
      expect(cache.get('k', '1')).toBe('value');
      vi.advanceTimersByTime(2);
      expect(cache.get('k', '1')).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
