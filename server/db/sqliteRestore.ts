// Restoring a SQLite database from a backup (`labctl restore`): the backup is checked read-only
// (a SQLite file, intact, with our migrations table and no migration this release does not know),
// the current database is kept beside it, and the file is swapped while no server uses it. Servers
// leave a marker next to the database file while they run, so a restore can refuse.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { PRIVATE_FILE_MODE } from '../privateFiles.js';
import { migrationSource } from './migrations/index.js';

/** What is wrong with a backup file, or null when it can be restored. */
export async function backupProblem(file: string): Promise<string | null> {
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) return `${file} is not a file.`;
  const header = Buffer.alloc(16);
  const fd = fs.openSync(file, 'r');
  fs.readSync(fd, header, 0, 16, 0);
  fs.closeSync(fd);
  if (header.toString('latin1') !== 'SQLite format 3\u0000') return `${file} is not a SQLite database.`;
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const column = (sql: string) => (db!.prepare(sql).pluck().all() as unknown[]).map(String);
    const integrity = column('PRAGMA integrity_check');
    if (integrity[0] !== 'ok') return `${file} is damaged: ${integrity.join('; ')}`;
    const tables = column("select name from sqlite_master where type = 'table'");
    if (!tables.includes('knex_migrations') || !tables.includes('requests')) return `${file} is not a database of this laboratory portal (no migrations table).`;
    const applied = column('select name from knex_migrations');
    const known = new Set(await migrationSource.getMigrations([]));
    const unknown = applied.filter((name) => !known.has(name));
    if (unknown.length) return `${file} comes from a newer release (migrations ${unknown.join(', ')}); upgrade labctl first.`;
    return null;
  } catch (err) {
    return `${file} could not be read as a SQLite database: ${(err as Error).message}`;
  } finally {
    db?.close();
  }
}

const markerPrefix = (filename: string) => `${path.basename(filename)}.serving-`;

/** Marks `filename` as used by this process until the returned function is called. */
export function markServing(filename: string): () => void {
  const marker = path.join(path.dirname(filename), `${markerPrefix(filename)}${process.pid}`);
  fs.writeFileSync(marker, `${process.pid}\n`, { mode: PRIVATE_FILE_MODE });
  return () => fs.rmSync(marker, { force: true });
}

/** Process ids of running servers that use `filename` (markers of ended processes are ignored). */
export function serversUsing(filename: string): number[] {
  const dir = path.dirname(filename);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.startsWith(markerPrefix(filename)))
    .map((name) => Number(name.slice(markerPrefix(filename).length)))
    .filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
}

/** Replaces the database file by a copy of `backup`, dropping the old write-ahead log. */
export function replaceDatabaseFile(filename: string, backup: string): void {
  const incoming = `${filename}.restoring`;
  fs.copyFileSync(backup, incoming);
  // A copy takes the backup's mode, and the backup may come from anywhere: the database is owner-only.
  fs.chmodSync(incoming, PRIVATE_FILE_MODE);
  for (const suffix of ['-wal', '-shm']) fs.rmSync(`${filename}${suffix}`, { force: true });
  fs.renameSync(incoming, filename);
}
