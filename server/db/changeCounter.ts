// A number that changes whenever anything is committed to the SQLite file, by this process or any
// other (labctl, a restore): `PRAGMA data_version` read on a read-only connection of its own, which
// sees every other connection's commits, the server's own pool included.
//
// Callers share reads: a read waits for the check phase of the event loop (setImmediate) and answers
// everyone who asked before it, so it still begins after each call. Under load one read serves every
// call the poll phase delivered (about forty at fifty connections) instead of one each: a read is a
// read transaction with two file-lock system calls, a fifth of a cached answer's time.
import Database from 'better-sqlite3';

export interface ChangeCounter {
  /** The counter as of a read that began after this call: any commit before the call shows. */
  read(): Promise<number>;
  close(): Promise<void>;
}

export async function openChangeCounter(filename: string): Promise<ChangeCounter> {
  const conn = new Database(filename, { readonly: true, fileMustExist: true });
  const statement = conn.prepare('PRAGMA data_version').pluck();
  let next: Promise<number> | undefined;
  const readNow = (resolve: (version: number) => void, reject: (err: unknown) => void) => {
    next = undefined;
    try {
      resolve(statement.get() as number);
    } catch (err) {
      reject(err);
    }
  };
  return {
    read: () => (next ??= new Promise((resolve, reject) => setImmediate(readNow, resolve, reject))),
    close: async () => {
      conn.close();
    },
  };
}
