// `labctl doctor`: checks settings, data directory, database, migrations and mail, and changes
// nothing anywhere while doing so. A mistyped DATA_DIR stays absent (and is reported), the database
// is opened read-only (SQLite without creating its -wal/-shm files; PostgreSQL sessions refuse
// writes), migrations are read, not listed through knex (which creates its tables), and the outbox
// folder is checked, not made. So it also works on a read-only copy of a data directory.
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ConfigError, describeDatabase, loadConfig, type Config } from '../../server/config.js';
import { checkConnection } from '../../server/db/connectionProblems.js';
import { createDb } from '../../server/db/knex.js';
import { outboxStatus } from '../../server/db/outbox.js';
import { createMailer } from '../../server/mail/mailer.js';
import { checkReadiness } from '../../server/services/readiness.js';
import { AbortError, cliLogger, out } from '../runtime.js';
import { io } from '../io.js';
import type { Logger } from '../../server/logger.js';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

const check = (name: string, ok: boolean, detail: string): Check => ({ name, ok, detail });

/** The data directory exists, this user can write it, and others can neither read nor write it. */
function dataDirCheck(config: Config): Check {
  const dir = config.dataDir;
  const name = 'data directory';
  if (!fs.existsSync(dir)) return check(name, false, `${dir} does not exist (nothing was created); fix DATA_DIR, or create it for the service user (install -d -m 700 ${dir}).`);
  if (!fs.statSync(dir).isDirectory()) return check(name, false, `${dir} is a file, not a directory; fix DATA_DIR.`);
  try {
    fs.accessSync(dir, fs.constants.W_OK);
  } catch {
    return check(name, false, `${dir} is not writable by this user, so the server cannot write its database and mail there; chown it to the service user.`);
  }
  // A private directory protects the database, backups and mail files in it whatever their own modes.
  if ((fs.statSync(dir).mode & 0o007) !== 0) return check(name, false, `${dir} can be read or written by other users; chmod o-rwx ${dir}`);
  return check(name, true, `${dir} is writable and private`);
}

async function databaseChecks(config: Config, logger: Logger): Promise<Check[]> {
  const settings = config.database;
  const where = describeDatabase(settings);
  if (settings.client === 'sqlite3' && !fs.existsSync(settings.filename)) {
    return [check('database', false, `there is no database at ${settings.filename} (nothing was created); fix DATA_DIR or DATABASE_URL, or create one with labctl migrate latest.`)];
  }
  const db = createDb(settings, { logger, readOnly: true });
  try {
    await checkConnection(db, settings);
    const readiness = await checkReadiness(db);
    if (!readiness.ready) return [check('database', false, `${where}: ${readiness.reason}`)];
    const mail = await outboxStatus(db);
    return [
      check('database', true, `${where} reachable, migrations current`),
      mail.counts.failed > 0
        ? check('mail outbox', false, `${mail.counts.failed} mail given up (last error: ${mail.lastError?.error ?? 'unknown'}); fix SMTP, then labctl mail retry --all-failed.`)
        : check('mail outbox', true, `${mail.counts.pending} waiting, none given up`),
    ];
  } catch (err) {
    return [check('database', false, (err as Error).message)];
  } finally {
    await db.destroy();
  }
}

async function mailCheck(config: Config, logger: Logger): Promise<Check> {
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox'), demo: false, logger });
  try {
    await mailer.verify();
    return check('mail', true, config.smtpUrl ? 'the SMTP server answers' : 'SMTP_URL is not set: the server writes mail to DATA_DIR/outbox as .eml files');
  } catch (err) {
    return check('mail', false, `${config.smtpUrl ? 'the SMTP server refused' : 'the outbox folder is not writable'}: ${(err as Error).message}`);
  } finally {
    mailer.close();
  }
}

export function registerDoctor(command: Command): void {
  command
    .option('--json', 'print the checks as one JSON document: {"ok", "checks": [{"name", "ok", "detail"}]}')
    .addHelpText('after', '\nChanges nothing: creates no directory, file or table, and opens the database read-only.\nExit code 1 when any check fails.\n\nExamples:\n  $ labctl doctor\n  $ DATABASE_URL=postgres://lab@db/lab labctl doctor --json')
    .action(async (opts: { json?: boolean }) => {
      let config: Config | null = null;
      const checks: Check[] = [];
      try {
        config = loadConfig(io().env);
        checks.push(check('configuration', true, 'every setting is valid'));
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        checks.push(...err.problems.map((problem) => check('configuration', false, problem)));
      }
      if (config) {
        const logger = await cliLogger(config, false);
        checks.push(dataDirCheck(config), ...(await databaseChecks(config, logger)), await mailCheck(config, logger));
      }
      const failures = checks.filter((c) => !c.ok).length;
      // The document lists every check, failed or not: it is the result, so it goes to stdout either way.
      if (opts.json) out(JSON.stringify({ ok: failures === 0, checks }));
      else for (const c of checks) out(`${c.ok ? 'ok  ' : 'FAIL'}  ${c.name.padEnd(15)} ${c.detail}`);
      if (failures) throw new AbortError(`${failures} check${failures > 1 ? 's' : ''} failed.`);
    });
}
