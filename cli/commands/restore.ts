import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { describeDatabase, loadConfig } from '../../server/config.js';
import { createDb } from '../../server/db/knex.js';
import { refreshStatistics } from '../../server/db/statistics.js';
import { backupProblem, replaceDatabaseFile, serversUsing } from '../../server/db/sqliteRestore.js';
import { ensurePrivateDir, ensurePrivateFile } from '../../server/privateFiles.js';
import { AbortError, info, out } from '../runtime.js';
import { io } from '../io.js';
import { confirm } from '../terminal.js';

interface RestoreOptions {
  yes?: boolean;
  json?: boolean;
}

const stamp = (at: Date) => at.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');

export function registerRestore(command: Command): void {
  command
    .argument('<backup>', 'a file made by `labctl backup`')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--json', 'print {"restored","previous"}')
    .addHelpText(
      'after',
      '\nStop every `labctl serve` using the database first. Pending migrations are applied when the server starts.\n\nExamples:\n  $ labctl restore data/backups/lab-20260320-090000.sqlite\n  $ labctl restore /srv/backups/lab.sqlite --yes\n\nPostgreSQL databases are restored with pg_restore (see docs/deploy.md).',
    )
    .action(async (backupArg: string, opts: RestoreOptions) => {
      const config = loadConfig(io().env);
      const database = config.database;
      if (database.client !== 'sqlite3') {
        throw new AbortError(`labctl restore replaces SQLite databases; ${describeDatabase(database)} is restored with pg_restore, e.g.\n  pg_restore --clean --if-exists --no-owner --dbname "$DATABASE_URL" lab.dump`);
      }
      const backup = path.resolve(backupArg);
      const problem = await backupProblem(backup);
      if (problem) throw new AbortError(`Not restored: ${problem}`);
      const running = serversUsing(database.filename);
      if (running.length) throw new AbortError(`Not restored: labctl serve (process ${running.join(', ')}) is using ${database.filename}; stop it first.`);
      if (!(await confirm(`Replace ${database.filename} by ${backup}?`, { assumeYes: opts.yes }))) throw new AbortError('Not restored.');

      let previous: string | null = null;
      if (fs.existsSync(database.filename)) {
        previous = path.join(config.dataDir, 'backups', `lab-before-restore-${stamp(new Date())}.sqlite`);
        ensurePrivateDir(path.dirname(previous));
        // Owner-only and empty first: VACUUM INTO fills it and keeps its permissions (as labctl backup).
        ensurePrivateFile(previous);
        const db = createDb(database);
        try {
          await db.raw('VACUUM INTO ?', [previous]);
        } finally {
          await db.destroy();
        }
      }
      replaceDatabaseFile(database.filename, backup);
      // The restored file's statistics are the backup's, or none: refresh them before anyone reads it.
      const restored = createDb(database);
      try {
        await refreshStatistics(restored);
      } finally {
        await restored.destroy();
      }
      info(`Restored ${database.filename} from ${backup}.${previous ? ` The database it replaced is kept as ${previous}.` : ''}`);
      if (opts.json) out(JSON.stringify({ restored: database.filename, previous }));
    });
}
