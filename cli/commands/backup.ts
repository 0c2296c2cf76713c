import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { describeDatabase } from '../../server/config.js';
import { AbortError, info, out, withRuntime } from '../runtime.js';

interface BackupOptions {
  out?: string;
  json?: boolean;
}

/** lab-YYYYMMDD-HHMMSS.sqlite, in UTC like every timestamp the lab stores. */
function backupFileName(at: Date): string {
  const stamp = at.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  return `lab-${stamp}.sqlite`;
}

export function registerBackup(program: Command): void {
  program
    .command('backup')
    .description('Copy the SQLite database to a new file, consistently, while the server keeps running')
    .option('-o, --out <file>', 'where to write the copy (default DATA_DIR/backups/lab-YYYYMMDD-HHMMSS.sqlite, UTC); an existing file is never overwritten')
    .option('--json', 'print {"file","bytes"} instead of the file name')
    .addHelpText(
      'after',
      '\nExamples:\n  $ labctl backup\n  $ labctl backup --out /srv/backups/lab-before-upgrade.sqlite\n\nPostgreSQL databases are backed up with pg_dump, not with labctl.',
    )
    .action((opts: BackupOptions) =>
      withRuntime(
        async (rt) => {
          const database = rt.config.database;
          if (database.client !== 'sqlite3') {
            throw new AbortError(
              `labctl backup copies SQLite databases; ${describeDatabase(database)} is backed up with pg_dump, e.g.\n  pg_dump --format=custom --file lab-$(date +%Y%m%d).dump "$DATABASE_URL"`,
            );
          }
          const file = path.resolve(opts.out ?? path.join(rt.config.dataDir, 'backups', backupFileName(rt.clock.now())));
          if (fs.existsSync(file)) throw new AbortError(`${file} already exists; choose another file with --out (backups never overwrite).`);
          fs.mkdirSync(path.dirname(file), { recursive: true });
          // VACUUM INTO reads one snapshot (a read transaction under WAL), so the server's readers and
          // writers carry on and the copy is consistent and compact.
          await rt.db.raw('VACUUM INTO ?', [file]);
          const bytes = fs.statSync(file).size;
          info(`Backed up ${describeDatabase(database)} to ${file} (${(bytes / 1024 / 1024).toFixed(1)} MB).`);
          out(opts.json ? JSON.stringify({ file, bytes }) : file);
        },
        { migrate: false },
      ),
    );
}
