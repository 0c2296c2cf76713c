import type { Command } from 'commander';
import { lastBatch, migrateRollback, migrationStatus } from '../../server/db/migrate.js';
import { describeDatabase } from '../../server/config.js';
import { AbortError, applyMigrations, asOwner, info, out, withRuntime, type Runtime } from '../runtime.js';
import { confirm } from '../terminal.js';
import { backupSqlite, defaultBackupFile } from '../sqliteBackup.js';

/** Applies or reverts migrations with `change`, then says on stderr which (or `none`); with --json, {"applied"} or {"reverted"} on stdout. */
function migrateAndTell(change: (rt: Runtime) => Promise<string[]>, verb: 'applied' | 'reverted', none: string, json = false): Promise<void> {
  return withRuntime(async (rt) => {
    const names = await change(rt);
    if (json) return out(JSON.stringify({ database: describeDatabase(rt.config.database), [verb]: names }));
    info(`${describeDatabase(rt.config.database)}: ${names.length ? `${verb} ${names.join(', ')}` : none}`);
  }, { migrate: false, createDatabase: true });
}

/**
 * Migrations whose rollback takes the audit trail away (001 drops audit_log, 005 lifts its
 * append-only trigger): reverting one is treated like dropping everything.
 */
const GUARD_AUDIT_TRAIL = ['001_initial', '005_reception'];

/**
 * Rolling back every migration deletes all data, and rolling back one that guards the audit trail
 * exposes its entries: ask, and keep a copy of a SQLite database (21 CFR 11.10(e): no entry is lost).
 */
async function beforeRollingBack(rt: Runtime, all: boolean, yes: boolean): Promise<void> {
  const reverting = all ? (await migrationStatus(rt.db)).applied : await lastBatch(rt.db);
  if (!reverting.some((name) => GUARD_AUDIT_TRAIL.includes(name))) return;
  const database = describeDatabase(rt.config.database);
  const question = all
    ? `Drop every table of ${database}, with all its data?`
    : `Revert ${reverting.join(', ')} of ${database}? This drops data and takes the audit trail's protection away.`;
  if (!(await confirm(question, { assumeYes: yes }))) throw new AbortError('Nothing was rolled back.');
  if (rt.config.database.client === 'sqlite3') await backupSqlite(rt, defaultBackupFile(rt.config.dataDir, rt.clock.now()));
  else info(`No backup taken: labctl backs up SQLite only; ${database} is backed up with pg_dump.`);
}

export function registerMigrate(command: Command): void {
  const migrate = command
    .addHelpText('after', '\nExamples:\n  $ labctl migrate latest\n  $ labctl migrate rollback --all\n  $ labctl migrate status --json');

  migrate
    .command('latest', { isDefault: true })
    .description('apply every pending migration (as MIGRATION_DATABASE_URL\'s owner role when set, which then grants DATABASE_URL\'s role what the portal needs)')
    .option('--json', 'print {"database","applied"} (the migrations applied) as JSON')
    .action((opts: { json?: boolean }) => migrateAndTell((rt) => applyMigrations(rt), 'applied', 'already up to date', opts.json));

  migrate
    .command('rollback')
    .description('revert the last batch of migrations')
    .option('--all', 'revert every migration: drops every table and its data (asks first; backs up a SQLite database first)')
    .option('-y, --yes', 'go ahead without asking (required without a terminal when the rollback drops the audit trail or, with --all, everything)')
    .option('--json', 'print {"database","reverted"} (the migrations reverted) as JSON')
    .addHelpText('after', '\nExamples:\n  $ labctl migrate rollback\n  $ labctl migrate rollback --all --yes')
    .action((opts: { all?: boolean; yes?: boolean; json?: boolean }) =>
      migrateAndTell(async (rt) => {
        await beforeRollingBack(rt, Boolean(opts.all), Boolean(opts.yes));
        return asOwner(rt, (owner) => migrateRollback(owner, Boolean(opts.all)));
      }, 'reverted', 'nothing to roll back', opts.json));

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
      }, { migrate: false, createDatabase: true }),
    );
}
