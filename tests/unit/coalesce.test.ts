// One run shared among callers (server/db/coalesce.ts), as the WAL flushes of commits and the reads of
// the change versions use it: a caller is answered by a run that began after its call, and the
// callers that come while one runs share the next one.
import { describe, expect, it } from 'vitest';
import { coalesced } from '../../server/db/coalesce.js';

/** A sync whose runs are started and finished by the test. */
function manualSync() {
  const runs: Array<{ finish: (err?: Error) => void }> = [];
  const sync = () =>
    new Promise<void>((resolve, reject) => {
      runs.push({ finish: (err) => (err ? reject(err) : resolve()) });
    });
  return { runs, sync };
}

const settledState = async (promise: Promise<unknown>) => {
  let state = 'pending';
  promise.then(() => (state = 'fulfilled'), () => (state = 'rejected'));
  await new Promise((resolve) => setImmediate(resolve));
  return state;
};

describe('coalesced', () => {
  it('starts a flush for a commit when none runs', async () => {
    const { runs, sync } = manualSync();
    const flush = coalesced(sync);
    const first = flush();
    expect(runs).toHaveLength(1);
    runs[0].finish();
    await expect(first).resolves.toBeUndefined();
  });

  it('answers commits made during a flush with the next flush, one for all of them', async () => {
    const { runs, sync } = manualSync();
    const flush = coalesced(sync);
    const first = flush();
    const second = flush();
    const third = flush();
    expect(second).toBe(third);
    // The running flush may have begun before their frames were written: it does not answer them.
    runs[0].finish();
    await first;
    expect(await settledState(second)).toBe('pending');
    expect(runs).toHaveLength(2);
    runs[1].finish();
    await expect(second).resolves.toBeUndefined();
    expect(runs).toHaveLength(2);
  });

  it('fails the commits a flush answers when it fails, and flushes again for later ones', async () => {
    const { runs, sync } = manualSync();
    const flush = coalesced(sync);
    const first = flush();
    const second = flush();
    runs[0].finish(new Error('EIO'));
    await expect(first).rejects.toThrow('EIO');
    runs[1].finish();
    await expect(second).resolves.toBeUndefined();
    const third = flush();
    expect(runs).toHaveLength(3);
    runs[2].finish();
    await expect(third).resolves.toBeUndefined();
  });

  it('after a turn: the calls of one turn of the event loop share a run, the first of them too', async () => {
    const { runs, sync } = manualSync();
    const read = coalesced(sync, { afterTurn: true });
    const first = read();
    const second = read();
    expect(second).toBe(first);
    expect(runs).toHaveLength(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toHaveLength(1);
    // A call while that run is under way is answered by the next one, begun after it.
    const third = read();
    runs[0].finish();
    await first;
    expect(await settledState(third)).toBe('pending');
    // It, too, begins once the turn that delivered the first answer is over.
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toHaveLength(2);
    runs[1].finish();
    await expect(third).resolves.toBeUndefined();
  });
});
