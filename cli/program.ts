import { Command } from 'commander';
import { registerMigrate } from './commands/migrate.js';
import { registerServe } from './commands/serve.js';

export function buildProgram(): Command {
  const program = new Command('labctl')
    .description('Meat inspection laboratory: run the portal and work with requests, results and reports from a terminal.\nSettings come from the environment (DATABASE_URL, DATA_DIR, SMTP_URL, ...) exactly as for `labctl serve`.')
    .showHelpAfterError()
    .exitOverride();
  registerServe(program);
  registerMigrate(program);
  return program;
}
