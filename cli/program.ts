import fs from 'node:fs';
import { Command } from 'commander';
import { io } from './io.js';
import { terminalSafe } from './safeText.js';

/** The package's version: package.json sits two levels above dist/cli/, one above cli/. */
function packageVersion(): string {
  for (const relative of ['../package.json', '../../package.json']) {
    const file = new URL(relative, import.meta.url);
    if (fs.existsSync(file)) return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
  }
  return 'unknown';
}

interface CommandEntry {
  name: string;
  description: string;
  /** The module defining the command's options, subcommands and action, loaded only when used. */
  load: () => Promise<(command: Command) => void>;
}

const COMMANDS: CommandEntry[] = [
  { name: 'serve', description: 'Start the web portal and API (applies pending migrations first)', load: async () => (await import('./commands/serve.js')).registerServe },
  { name: 'migrate', description: 'Apply, roll back or list database migrations', load: async () => (await import('./commands/migrate.js')).registerMigrate },
  { name: 'user', description: 'Manage accounts: add staff, testers, admins and clients; list, disable, reset passwords', load: async () => (await import('./commands/user.js')).registerUser },
  { name: 'seed', description: 'Add demo accounts and requests, or a large generated data set for benchmarks', load: async () => (await import('./commands/seed.js')).registerSeed },
  {
    name: 'requests',
    description: 'List, show, approve, reject and release testing requests, as the receive-and-release desk does',
    load: async () => {
      // `requests receive` is defined with the other traceability commands (commands never import each other).
      const [{ registerRequests }, { registerReceive }] = await Promise.all([import('./commands/requests.js'), import('./commands/traceability.js')]);
      return (command) => {
        registerRequests(command);
        registerReceive(command);
      };
    },
  },
  { name: 'results', description: 'Enter tester results in bulk', load: async () => (await import('./commands/results.js')).registerResults },
  { name: 'specs', description: 'Export and import the specifications results are judged against (CSV)', load: async () => (await import('./commands/specs.js')).registerSpecs },
  { name: 'report', description: 'Print and export the monthly positive/negative statistics of the database pages', load: async () => (await import('./commands/report.js')).registerReport },
  { name: 'certificate', description: 'Write the certificate of analysis (PDF) of a released request (its latest report, or --version n), or withdraw a report', load: async () => (await import('./commands/certificate.js')).registerCertificate },
  { name: 'labels', description: "Write the sample labels of an approved request as a PDF (one 62 mm x 29 mm label per sample)", load: async () => (await import('./commands/traceability.js')).registerLabels },
  { name: 'audit', description: 'Read the audit trail, newest first (it can never be changed)', load: async () => (await import('./commands/traceability.js')).registerAudit },
  { name: 'mail', description: 'See and retry the mail outbox', load: async () => (await import('./commands/mail.js')).registerMail },
  { name: 'restore', description: 'Replace the SQLite database with a backup, after checking it', load: async () => (await import('./commands/restore.js')).registerRestore },
  { name: 'doctor', description: 'Check configuration, data directory, database, migrations and mail; say what is wrong', load: async () => (await import('./commands/doctor.js')).registerDoctor },
  { name: 'backup', description: 'Copy the SQLite database to a new file, consistently, while the server keeps running', load: async () => (await import('./commands/backup.js')).registerBackup },
];

/**
 * The command `argv` names (`labctl requests list` and `labctl help requests` name requests), so
 * that only its module is loaded: `labctl --help` lists the commands without importing any.
 */
function commandNamed(argv: readonly string[]): CommandEntry | undefined {
  const words = argv.slice(2).filter((a) => !a.startsWith('-'));
  const name = words[0] === 'help' ? words[1] : words[0];
  return COMMANDS.find((c) => c.name === name);
}

/**
 * `--json` among the options (before a `--`), or `--format json` (`labctl report`'s older spelling
 * of it): failures are then reported as JSON (main.ts) and logs are JSON lines (runtime.ts).
 */
export function wantsJson(argv: readonly string[]): boolean {
  const args = argv.slice(2);
  const end = args.indexOf('--');
  const options = end < 0 ? args : args.slice(0, end);
  return options.some((a, i) => a === '--json' || /^--format=json$/i.test(a) || ((a === '--format' || a === '-f') && /^json$/i.test(options[i + 1] ?? '')));
}

/** The program for `argv`; with `everyCommand`, every command's module is loaded (tests list their options). */
export async function buildProgram(argv: readonly string[], everyCommand = false): Promise<Command> {
  const json = wantsJson(argv);
  const program = new Command('labctl')
    .description('Meat inspection laboratory: run the portal and work with requests, results and reports from a terminal.\nSettings come from the environment (DATABASE_URL, DATA_DIR, SMTP_URL, ...) exactly as for `labctl serve`.')
    .version(packageVersion(), '-V, --version', 'print the version of labctl')
    // `labctl --version` is the program's; after a command name (`certificate --version 2`) it is the command's.
    .enablePositionalOptions()
    .configureOutput({
      writeOut: (text) => io().stdout.write(terminalSafe(text)),
      writeErr: (text) => io().stderr.write(terminalSafe(text)),
      // With --json, main.ts writes the usage error as the JSON document instead.
      outputError: (text, write) => {
        if (!json) write(text);
      },
    })
    .showHelpAfterError(!json)
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
        '  $ labctl certificate 2026-0012 --out coa.pdf',
        '  $ labctl results import results.csv --as carlo@lab.example --dry-run',
        '  $ labctl report monthly --year 2026 --discipline microbio --format csv > microbio-2026.csv',
        '  $ labctl backup --out /backups/lab.sqlite',
        '',
        'Each command has its own --help with every option and examples. Exit codes: 0 ok, 1 failed, 2 usage error.',
      ].join('\n'),
    );
  const used = commandNamed(argv);
  for (const entry of COMMANDS) {
    const command = program.command(entry.name).description(entry.description);
    if (entry === used || everyCommand) (await entry.load())(command);
  }
  return program;
}
