// A number that changes whenever anything is committed to the SQLite file, by this process or any
// other (labctl, a restore): `PRAGMA data_version` read on a read-only connection of its own, which
// sees every other connection's commits, the server's own pool included. One prepared statement,
// which never waits behind the pool's queries.
import sqlite3 from 'sqlite3';

export interface ChangeCounter {
  /** The counter as of a read that began after this call: any commit before the call shows. */
  read(): Promise<number>;
  close(): Promise<void>;
}

export async function openChangeCounter(filename: string): Promise<ChangeCounter> {
  const conn = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened = new sqlite3.Database(filename, sqlite3.OPEN_READONLY, (err) => (err ? reject(err) : resolve(opened)));
  });
  const statement = conn.prepare('PRAGMA data_version');
  const readNow = () =>
    new Promise<number>((resolve, reject) => {
      // all() runs the statement afresh each time (get() would leave it stepped past its one row).
      statement.all((err: Error | null, rows: { data_version: number }[]) => (err ? reject(err) : resolve(rows[0]!.data_version)));
    });

  // Callers that arrive while a read runs share the one read that starts after it: never the running
  // one, which may have begun before a commit they must see.
  let running: Promise<number> | null = null;
  let following: Promise<number> | null = null;
  const read = (): Promise<number> => {
    if (!running) {
      running = readNow().finally(() => (running = null));
      return running;
    }
    following ??= running.then(
      () => undefined,
      () => undefined,
    ).then(() => {
      following = null;
      return read();
    });
    return following;
  };

  return {
    read,
    close: () =>
      new Promise((resolve, reject) => {
        statement.finalize(() => conn.close((err) => (err ? reject(err) : resolve())));
      }),
  };
}
