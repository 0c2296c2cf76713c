import type { Command } from 'commander';
import { migrateLatest, migrateRollback, migrationStatus } from '../../server/db/migrate.js';
import { describeDatabase } from '../../server/config.js';
import { info, out, withRuntime } from '../runtime.js';

export function registerMigrate(program: Command): void {
  const migrate = program
    .command('migrate')
    .description('Apply, roll back or list database migrations')
    .addHelpText('after', '\nExamples:\n  $ labctl migrate latest\n  $ labctl migrate rollback --all\n  $ labctl migrate status --json');

  migrate
    .command('latest', { isDefault: true })
    .description('apply every pending migration')
    .action(() =>
      withRuntime(async (rt) => {
        const applied = await migrateLatest(rt.db);
        info(`${describeDatabase(rt.config.database)}: ${applied.length ? `applied ${applied.join(', ')}` : 'already up to date'}`);
      }, { migrate: false }),
    );

  migrate
    .command('rollback')
    .description('revert the last batch of migrations')
    .option('--all', 'revert every migration')
    .action((opts: { all?: boolean }) =>
      withRuntime(async (rt) => {
        const reverted = await migrateRollback(rt.db, Boolean(opts.all));
        info(`${describeDatabase(rt.config.database)}: ${reverted.length ? `reverted ${reverted.join(', ')}` : 'nothing to roll back'}`);
      }, { migrate: false }),
    );

  migrate
    .command('status')
    .description('list applied and pending migrations')
    .option('--json', 'machine-readable output')
    .action((opts: { json?: boolean }) =>
      withRuntime(async (rt) => {
        const status = await migrationStatus(rt.db);
        if (opts.json) {
          out(JSON.stringify(status));
          return;
        }
        for (const name of status.applied) out(`applied  ${name}`);
        for (const name of status.pending) out(`pending  ${name}`);
      }, { migrate: false }),
    );
}
