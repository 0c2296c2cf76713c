// The change versions (changeVersions.ts) as of now, for the read cache: on SQLite read on a
// read-only connection of its own, which sees every other connection's commits (the server's pool,
// labctl, a restore); on PostgreSQL read through the pool, which sees every instance's commits.
//
// Callers share reads: a read waits for the check phase of the event loop (setImmediate) and answers
// everyone who asked before it, so it still begins after each call. Under load one read serves every
// call the poll phase delivered (about forty at fifty connections) instead of one each.
import Database from 'better-sqlite3';
import type { Config } from '../config.js';
import { readVersions, versionsOf, type Versions } from './changeVersions.js';
import type { Db } from './knex.js';

export interface ChangeCounter {
  /** The versions as of a read that began after this call: any commit before the call shows. */
  read(): Promise<Versions>;
  close(): Promise<void>;
}

/** Shares one `readNow` among the calls that arrive before it begins. */
export function sharedReads(readNow: () => Versions | Promise<Versions>, close: () => Promise<void>): ChangeCounter {
  let next: Promise<Versions> | undefined;
  const begin = (resolve: (versions: Versions) => void, reject: (err: unknown) => void) => {
    // Calls from here on wait for the next read: this one may have begun before they arrived.
    next = undefined;
    try {
      Promise.resolve(readNow()).then(resolve, reject);
    } catch (err) {
      reject(err);
    }
  };
  return {
    read: () => (next ??= new Promise((resolve, reject) => setImmediate(begin, resolve, reject))),
    close,
  };
}

export async function openChangeCounter(database: Config['database'], db: Db): Promise<ChangeCounter> {
  if (database.client !== 'sqlite3') return sharedReads(() => readVersions(db), async () => undefined);
  const conn = new Database(database.filename, { readonly: true, fileMustExist: true });
  const statement = conn.prepare<[], { name: string; n: number }>('SELECT name, sum(n) AS n FROM lab_versions GROUP BY name');
  return sharedReads(
    () => versionsOf(statement.all()),
    async () => {
      conn.close();
    },
  );
}
