// One run of a slow operation shared by every caller that needs one begun after its own call: the
// WAL flush of the commits waiting for it (walSync.ts), the read of the change versions on
// PostgreSQL's one connection (changeCounter.ts).

/**
 * Shares `run` among callers: a caller is answered by a run that began after its call (one running
 * when it came may have started too early, e.g. flushed the WAL before its frames were written, or
 * read the versions before its commit), and every caller that came while one ran shares the next.
 * So at most one run is under way and one waits, however many callers there are.
 */
export function coalesced<T>(run: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  let next: Promise<T> | undefined;
  const start = (): Promise<T> => {
    const current = run().finally(() => {
      running = undefined;
    });
    running = current;
    return current;
  };
  return () => {
    if (!running) return start();
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = undefined;
        return start();
      });
    return next;
  };
}
