import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ConfigError, describeDatabase, loadConfig, type Config } from '../../server/config.js';
import { createDb } from '../../server/db/knex.js';
import { outboxStatus } from '../../server/db/outbox.js';
import { createLogger } from '../../server/logger.js';
import { createMailer } from '../../server/mail/mailer.js';
import { checkReadiness } from '../../server/services/readiness.js';
import { AbortError, out } from '../runtime.js';
import { io } from '../io.js';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

const failed = (name: string, err: unknown): Check => ({ name, ok: false, detail: (err as Error).message });

/** The data directory exists, this user can write it, and others can neither read nor write it. */
function dataDirCheck(config: Config): Check {
  const dir = config.dataDir;
  if (!fs.existsSync(dir)) return { name: 'data directory', ok: false, detail: `${dir} does not exist; create it (mkdir -p ${dir}) or set DATA_DIR.` };
  try {
    fs.accessSync(dir, fs.constants.W_OK);
  } catch {
    return { name: 'data directory', ok: false, detail: `${dir} is not writable by this user; chown it to the service user.` };
  }
  // A private directory protects the database, backups and mail files in it whatever their own modes.
  if ((fs.statSync(dir).mode & 0o007) !== 0) return { name: 'data directory', ok: false, detail: `${dir} can be read or written by other users; chmod o-rwx ${dir}` };
  return { name: 'data directory', ok: true, detail: `${dir} is writable and private` };
}

async function databaseChecks(config: Config): Promise<Check[]> {
  const db = createDb(config.database);
  try {
    const readiness = await checkReadiness(db);
    if (!readiness.ready) return [{ name: 'database', ok: false, detail: `${describeDatabase(config.database)}: ${readiness.reason}` }];
    const mail = await outboxStatus(db);
    return [
      { name: 'database', ok: true, detail: `${describeDatabase(config.database)} reachable, migrations current` },
      mail.counts.failed > 0
        ? { name: 'mail outbox', ok: false, detail: `${mail.counts.failed} mail given up (last error: ${mail.lastError?.error ?? 'unknown'}); fix SMTP, then labctl mail retry --all-failed.` }
        : { name: 'mail outbox', ok: true, detail: `${mail.counts.pending} waiting, none given up` },
    ];
  } catch (err) {
    return [failed('database', err)];
  } finally {
    await db.destroy();
  }
}

async function mailCheck(config: Config): Promise<Check> {
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox'), demo: false, logger: createLogger('silent') });
  try {
    await mailer.verify();
    return { name: 'mail', ok: true, detail: config.smtpUrl ? 'the SMTP server answers' : 'SMTP_URL is not set: mail is written to DATA_DIR/outbox as .eml files' };
  } catch (err) {
    return { name: 'mail', ok: false, detail: `${config.smtpUrl ? 'the SMTP server refused' : 'the outbox folder is not writable'}: ${(err as Error).message}` };
  } finally {
    mailer.close();
  }
}

export function registerDoctor(command: Command): void {
  command
    .option('--json', 'print the checks as a JSON array')
    .addHelpText('after', '\nExit code 1 when any check fails.\n\nExamples:\n  $ labctl doctor\n  $ DATABASE_URL=postgres://lab@db/lab labctl doctor --json')
    .action(async (opts: { json?: boolean }) => {
      let config: Config | null = null;
      const checks: Check[] = [];
      try {
        config = loadConfig(io().env);
        checks.push({ name: 'configuration', ok: true, detail: 'every setting is valid' });
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        checks.push(...err.problems.map((problem) => ({ name: 'configuration', ok: false, detail: problem })));
      }
      if (config) checks.push(dataDirCheck(config), ...(await databaseChecks(config)), await mailCheck(config));
      if (opts.json) out(JSON.stringify(checks));
      else for (const c of checks) out(`${c.ok ? 'ok  ' : 'FAIL'}  ${c.name.padEnd(15)} ${c.detail}`);
      const failures = checks.filter((c) => !c.ok).length;
      if (failures) throw new AbortError(`${failures} check${failures > 1 ? 's' : ''} failed.`);
    });
}
