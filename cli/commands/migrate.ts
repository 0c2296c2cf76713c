import type { Command } from 'commander';
import { migrateLatest, migrateRollback, migrationStatus } from '../../server/db/migrate.js';
import { describeDatabase } from '../../server/config.js';
import { info, out, withRuntime, type Runtime } from '../runtime.js';

/** Applies or reverts migrations with `change`, then says on stderr which (or `none`). */
function migrateAndTell(change: (rt: Runtime) => Promise<string[]>, verb: string, none: string): Promise<void> {
  return withRuntime(async (rt) => {
    const names = await change(rt);
    info(`${describeDatabase(rt.config.database)}: ${names.length ? `${verb} ${names.join(', ')}` : none}`);
  }, { migrate: false });
}

export function registerMigrate(program: Command): void {
  const migrate = program
    .command('migrate')
    .description('Apply, roll back or list database migrations')
    .addHelpText('after', '\nExamples:\n  $ labctl migrate latest\n  $ labctl migrate rollback --all\n  $ labctl migrate status --json');

  migrate
    .command('latest', { isDefault: true })
    .description('apply every pending migration')
    .action(() => migrateAndTell((rt) => migrateLatest(rt.db), 'applied', 'already up to date'));

  migrate
    .command('rollback')
    .description('revert the last batch of migrations')
    .option('--all', 'revert every migration')
    .action((opts: { all?: boolean }) => migrateAndTell((rt) => migrateRollback(rt.db, Boolean(opts.all)), 'reverted', 'nothing to roll back'));

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
