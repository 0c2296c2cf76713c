// A consistent copy of the SQLite database (VACUUM INTO): `labctl backup`, and `labctl migrate
// rollback` before it drops the audit trail.
import fs from 'node:fs';
import path from 'node:path';
import { describeDatabase } from '../server/config.js';
import { ensurePrivateDir, ensurePrivateFile } from '../server/privateFiles.js';
import { AbortError, info, type Runtime } from './runtime.js';

/** DATA_DIR/backups/lab-YYYYMMDD-HHMMSS.sqlite, in UTC like every timestamp the lab stores. */
export function defaultBackupFile(dataDir: string, at: Date): string {
  const stamp = at.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  return path.join(dataDir, 'backups', `lab-${stamp}.sqlite`);
}

/** Copies the SQLite database to `file`, which must not exist yet; returns its size in bytes. */
export async function backupSqlite(rt: Runtime, file: string): Promise<number> {
  if (fs.existsSync(file)) throw new AbortError(`${file} already exists; choose another file with --out (backups never overwrite).`);
  try {
    ensurePrivateDir(path.dirname(file));
    // An empty owner-only file first: VACUUM INTO fills it and keeps its permissions.
    ensurePrivateFile(file);
    // VACUUM INTO reads one snapshot (a read transaction under WAL), so the server's readers and
    // writers carry on and the copy is consistent and compact.
    await rt.db.raw('VACUUM INTO ?', [file]);
  } catch (err) {
    throw new AbortError(`Cannot write the backup to ${file}: ${(err as Error).message}`);
  }
  const bytes = fs.statSync(file).size;
  info(`Backed up ${describeDatabase(rt.config.database)} to ${file} (${(bytes / 1024 / 1024).toFixed(1)} MB).`);
  return bytes;
}
