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
    .exitOverride();
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
