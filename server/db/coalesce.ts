// One run of a slow operation shared by every caller that needs one begun after its own call: the
// WAL flush of the commits waiting for it (walSync.ts), the read of the change versions on
// PostgreSQL's one connection (changeCounter.ts).

/**
 * Shares `run` among callers: a caller is answered by a run that began after its call (one running
 * when it came may have started too early, e.g. flushed the WAL before its frames were written, or
 * read the versions before its commit), and every caller that came while one ran shares the next.
 * So at most one run is under way and one waits, however many callers there are. `afterTurn`: a run
 * begins only once the event loop has read what is ready (setImmediate), so the calls that one poll of
 * the sockets delivered share it, the first of them included, instead of that first call taking a run
 * of its own and the others waiting for the next.
 */
export function coalesced<T>(run: () => Promise<T>, { afterTurn = false } = {}): () => Promise<T> {
  let running: Promise<T> | undefined;
  let next: Promise<T> | undefined;
  const start = (): Promise<T> => {
    const current = run().finally(() => {
      running = undefined;
    });
    running = current;
    return current;
  };
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  // What the next run waits for: the one under way, and then (afterTurn) the end of a turn.
  const waitFor = (current: Promise<T> | undefined): Promise<unknown> => {
    if (!current) return turn();
    const done = current.catch(() => undefined);
    return afterTurn ? done.then(turn) : done;
  };
  return () => {
    if (!running && !afterTurn) return start();
    next ??= waitFor(running).then(() => {
      next = undefined;
      return start();
    });
    return next;
  };
}
