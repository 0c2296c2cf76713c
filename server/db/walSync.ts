// SQLite's commits made durable off the event loop. With synchronous=FULL, SQLite fsyncs its WAL
// inside every COMMIT, and better-sqlite3 runs a COMMIT on the event loop, so every call waited for
// the disk (1.9 ms here, 9 ms at p90, 44 ms at worst while the machine is busy). The connections run
// with synchronous=NORMAL instead, where a COMMIT only writes the WAL, and the client flushes the WAL
// with fdatasync in libuv's thread pool before a commit's promise settles (sqliteClient.ts): a write
// is acknowledged only once it is on disk, as with FULL, while other calls go on. Other connections
// may read a commit a moment before its flush ends; a power cut in that moment loses the commit, a
// crash of the process does not (it is in the WAL already).
import fs from 'node:fs';
import { coalesced } from './coalesce.js';

/** fdatasync of `file`; a file that is gone has nothing to flush (closing the last connection checkpoints and syncs the WAL away). */
export function fdatasyncFile(file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    fs.open(file, 'r', (openError, fd) => {
      if (openError) return openError.code === 'ENOENT' ? resolve() : reject(openError);
      fs.fdatasync(fd, (syncError) => {
        // The commits waiting for the flush go on at once; the descriptor is closed behind them.
        if (syncError) reject(syncError);
        else resolve();
        fs.close(fd, () => undefined);
      });
    });
  });
}

const walSyncs = new Map<string, () => Promise<void>>();

/**
 * Flushes the WAL of the database file `filename`, the flushes shared among the commits waiting for
 * one (coalesce.ts: a commit is answered by a flush begun after it) by every connection of this process.
 */
export function syncWal(filename: string): Promise<void> {
  const wal = `${filename}-wal`;
  let sync = walSyncs.get(wal);
  if (!sync) walSyncs.set(wal, (sync = coalesced(() => fdatasyncFile(wal))));
  return sync();
}
