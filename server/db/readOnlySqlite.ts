// A knex client that reads a SQLite file without changing anything on disk, for `labctl doctor`: a
// check must not alter the system it checks, and must work on a data directory it cannot write.
// SQLite's read-only mode is not enough on its own: opening a WAL database creates its -wal and -shm
// files when they are missing (and fails when the directory is read-only), and better-sqlite3 turns
// off the `immutable=1` URI that would avoid them.
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { ImmediateSqlite3 } from './sqliteClient.js';

/**
 * While a server runs, the -wal and -shm files exist and hold the newest commits: read through them.
 * Otherwise (a clean stop removes both after copying the WAL into the file) the file holds every
 * commit, and a copy of it in memory is read, marked as a rollback-journal database so SQLite
 * looks for no WAL beside it.
 */
export function openReadOnly(filename: string): Database.Database {
  if (fs.existsSync(`${filename}-wal`) && fs.existsSync(`${filename}-shm`)) {
    return new Database(filename, { readonly: true, fileMustExist: true });
  }
  const image = fs.readFileSync(filename);
  // Bytes 18 and 19 of the header are the file format versions: 2 is WAL, 1 the rollback journal.
  if (image.length >= 100) image[18] = image[19] = 1;
  const db = new Database(image);
  db.pragma('query_only = ON');
  return db;
}

export class ReadOnlySqlite3 extends ImmediateSqlite3 {
  async acquireRawConnection(): Promise<Database.Database> {
    return openReadOnly((this.connectionSettings as { filename: string }).filename);
  }
}
