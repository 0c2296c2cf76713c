// SQLite's commits made durable off the event loop. With synchronous=FULL, SQLite fsyncs its WAL
// inside every COMMIT, and better-sqlite3 runs a COMMIT on the event loop, so every call waited for
// the disk (1.9 ms here, 9 ms at p90, 44 ms at worst while the machine is busy). The connections run
// with synchronous=NORMAL instead, where a COMMIT only writes the WAL, and the client flushes the WAL
// with fdatasync in libuv's thread pool before a commit's promise settles (sqliteClient.ts): a write
// is acknowledged only once it is on disk, as with FULL, while other calls go on. Other connections
// may read a commit a moment before its flush ends; a power cut in that moment loses the commit, a
// crash of the process does not (it is in the WAL already).
import fs from 'node:fs';

/**
 * Shares `sync` among the commits that wait for one: a commit is answered by a sync that began after
 * it (one running when it came may have flushed the WAL before its frames), and every commit that
 * came while one ran shares the next.
 */
export function coalescedSync(sync: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const start = (): Promise<void> => {
    const flush = sync().finally(() => {
      running = undefined;
    });
    running = flush;
    return flush;
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

/** fdatasync of `file`; a file that is gone has nothing to flush (closing the last connection checkpoints and syncs the WAL away). */
export function fdatasyncFile(file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    fs.open(file, 'r', (openError, fd) => {
      if (openError) return openError.code === 'ENOENT' ? resolve() : reject(openError);
      fs.fdatasync(fd, (syncError) => fs.close(fd, () => (syncError ? reject(syncError) : resolve())));
    });
  });
}

const walSyncs = new Map<string, () => Promise<void>>();

/** Flushes the WAL of the database file `filename` (shared by every connection of this process to it). */
export function syncWal(filename: string): Promise<void> {
  const wal = `${filename}-wal`;
  let sync = walSyncs.get(wal);
  if (!sync) walSyncs.set(wal, (sync = coalescedSync(() => fdatasyncFile(wal))));
  return sync();
}
