import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { describeDatabase } from '../../server/config.js';
import { ensurePrivateDir, ensurePrivateFile } from '../../server/privateFiles.js';
import { AbortError, info, out, withRuntime, type Runtime } from '../runtime.js';

interface BackupOptions {
  out?: string;
  json?: boolean;
}

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

export function registerBackup(command: Command): void {
  command
    .option('-o, --out <file>', 'where to write the copy (default DATA_DIR/backups/lab-YYYYMMDD-HHMMSS.sqlite, UTC); an existing file is never overwritten')
    .option('--json', 'print {"file","bytes"} instead of the file name')
    .addHelpText(
      'after',
      '\nExamples:\n  $ labctl backup\n  $ labctl backup --out /srv/backups/lab-before-upgrade.sqlite\n\nPostgreSQL databases are backed up with pg_dump, not with labctl.',
    )
    .action((opts: BackupOptions) =>
      withRuntime(
        async (rt) => {
          const file = path.resolve(opts.out ?? defaultBackupFile(rt.config.dataDir, rt.clock.now()));
          const bytes = await backupSqlite(rt, file);
          out(opts.json ? JSON.stringify({ file, bytes }) : file);
        },
        {
          migrate: false,
          // Said before connecting: a database on another machine need not be reachable to learn it.
          refuse: ({ database }) =>
            database.client === 'sqlite3'
              ? undefined
              : `labctl backup copies SQLite databases; ${describeDatabase(database)} is backed up with pg_dump, e.g.\n  pg_dump --format=custom --file lab-$(date +%Y%m%d).dump "$DATABASE_URL"`,
        },
      ),
    );
}
