// A number that changes whenever anything is committed to the SQLite file, by this process or any
// other (labctl, a restore): `PRAGMA data_version` read on a read-only connection of its own, which
// sees every other connection's commits, the server's own pool included. The read is synchronous,
// so it always begins after the call: any commit before the call shows.
import Database from 'better-sqlite3';

export interface ChangeCounter {
  /** The counter as of a read that began after this call: any commit before the call shows. */
  read(): Promise<number>;
  close(): Promise<void>;
}

export async function openChangeCounter(filename: string): Promise<ChangeCounter> {
  const conn = new Database(filename, { readonly: true, fileMustExist: true });
  const statement = conn.prepare('PRAGMA data_version').pluck();
  return {
    read: async () => statement.get() as number,
    close: async () => {
      conn.close();
    },
  };
}
