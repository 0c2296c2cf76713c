import { Command } from 'commander';
import { registerBackup } from './commands/backup.js';
import { registerMigrate } from './commands/migrate.js';
import { registerReport } from './commands/report.js';
import { registerRequests } from './commands/requests.js';
import { registerResults } from './commands/results.js';
import { registerSeed } from './commands/seed.js';
import { registerServe } from './commands/serve.js';
import { registerUser } from './commands/user.js';

export function buildProgram(): Command {
  const program = new Command('labctl')
    .description('Meat inspection laboratory: run the portal and work with requests, results and reports from a terminal.\nSettings come from the environment (DATABASE_URL, DATA_DIR, SMTP_URL, ...) exactly as for `labctl serve`.')
    .showHelpAfterError()
    .exitOverride()
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ labctl serve --demo',
        '  $ labctl user add --role staff --email rosa@lab.example --password "a long passphrase"',
        '  $ labctl requests list --status pending_review',
        '  $ labctl requests approve 2026-0012 --as rosa@lab.example',
        '  $ labctl results import results.csv --as carlo@lab.example --dry-run',
        '  $ labctl report monthly --year 2026 --discipline microbio --format csv > microbio-2026.csv',
        '  $ labctl backup --out /backups/lab.sqlite',
        '',
        'Each command has its own --help with every option and examples. Exit codes: 0 ok, 1 failed, 2 usage error.',
      ].join('\n'),
    );
  registerServe(program);
  registerMigrate(program);
  registerUser(program);
  registerSeed(program);
  registerRequests(program);
  registerResults(program);
  registerReport(program);
  registerBackup(program);
  return program;
}
