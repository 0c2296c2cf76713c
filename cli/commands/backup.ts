import path from 'node:path';
import type { Command } from 'commander';
import { describeDatabase } from '../../server/config.js';
import { out, withRuntime } from '../runtime.js';
import { backupSqlite, defaultBackupFile } from '../sqliteBackup.js';

interface BackupOptions {
  out?: string;
  json?: boolean;
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
