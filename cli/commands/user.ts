// labctl user add | list | disable | reset-password: accounts from the terminal, through the same
// services as the API (staff, tester and admin accounts are only made here).
import type { Command } from 'commander';
import { z } from 'zod';
import {
  ClassificationField,
  CompanyNameField,
  ContactNumberField,
  EmailField,
  LtoNumberField,
  NameField,
  OptionalUsernameField,
  PasswordField,
} from '../../server/domain/accountRules.js';
import { ROLES } from '../../server/domain/roles.js';
import { addAccount, disableAccount, listAccounts, resetToPassword, resetToRandomPassword, type AccountSummary, type NewAccount } from '../../server/services/accounts/admin.js';
import { accountDeps } from '../../server/services/accounts/codes.js';
import { startPasswordReset } from '../../server/services/accounts/passwordReset.js';
import { UsageError, info, out, withRuntime } from '../runtime.js';
import { readSecret } from '../secret.js';
import { formatTable } from '../table.js';

const CLIENT_ONLY = ['company', 'lto', 'classification', 'contact'] as const;

const AddOptions = z
  .object({
    role: z.enum(ROLES, `use one of ${ROLES.join(', ')}`),
    email: EmailField,
    password: PasswordField,
    username: OptionalUsernameField,
    firstName: NameField.optional(),
    lastName: z.string().trim().max(100, 'use at most 100 characters').optional(),
    company: CompanyNameField.optional(),
    lto: LtoNumberField.optional(),
    classification: ClassificationField.optional(),
    contact: ContactNumberField.optional(),
    json: z.boolean().optional(),
  })
  .superRefine((o, ctx) => {
    if (o.role !== 'client') return;
    for (const key of CLIENT_ONLY) {
      if (o[key] === undefined) ctx.addIssue({ code: 'custom', path: [key], message: 'required for a client' });
    }
  });

const flag = (key: PropertyKey) => `--${String(key).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Checks the options of `user add`; every problem is listed under its flag (exit code 2). */
function parseAddOptions(raw: unknown): NewAccount & { json?: boolean } {
  const parsed = AddOptions.safeParse(raw);
  if (!parsed.success) {
    throw new UsageError(parsed.error.issues.map((i) => `${i.path.length ? flag(i.path[0]) : 'options'}: ${i.message}`).join('; '));
  }
  const o = parsed.data;
  const base = {
    email: o.email,
    password: o.password,
    username: o.username,
    // Staff accounts often come without names: the address stands in for the first name.
    firstName: o.firstName ?? o.username ?? o.email.split('@')[0],
    lastName: o.lastName ?? '',
    json: o.json,
  };
  if (o.role !== 'client') return { ...base, role: o.role };
  return {
    ...base,
    role: 'client',
    contactNumber: o.contact!,
    company: { companyName: o.company!, ltoNo: o.lto!, classification: o.classification! },
  };
}

const LIST_COLUMNS = ['ID', 'ROLE', 'EMAIL', 'USERNAME', 'NAME', 'STATUS', 'VERIFIED'].map((header) => ({ header }));

const listRow = (a: AccountSummary) => [String(a.id), a.role, a.email, a.username ?? '-', a.name, a.status, a.verified ? 'yes' : 'no'];

export function registerUser(command: Command): void {
  const user = command
    .addHelpText(
      'after',
      '\nExamples:\n  $ labctl user add --role staff --email rosa@lab.example --password "a long passphrase"\n  $ labctl user list --json\n  $ labctl user disable rosa@lab.example\n  $ labctl user reset-password rosa@lab.example --send-code',
    );

  user
    .command('add')
    .description('create a verified, active account')
    .requiredOption('--role <role>', `one of ${ROLES.join(', ')}`)
    .requiredOption('--email <email>', 'e-mail address (the login name)')
    .option('--password-stdin', 'read the initial password from standard input (for scripts)')
    .option('--password <password>', 'initial password, at least 8 characters (visible to other users in ps: prefer the prompt or --password-stdin)')
    .option('--username <username>', 'optional login name: 3 to 64 letters, digits, dots, dashes or underscores')
    .option('--first-name <name>', 'first name (default: the username or the part of the e-mail before @)')
    .option('--last-name <name>', 'last name')
    .option('--company <name>', 'company name (required for --role client)')
    .option('--lto <number>', 'LTO number, at most 12 characters (required for --role client)')
    .option('--classification <text>', 'client classification, e.g. Importer (required for --role client)')
    .option('--contact <number>', 'contact number, e.g. "+63 917 123 4567" (required for --role client)')
    .option('--json', 'print the new account as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  $ labctl user add --role chemtester --email carlo@lab.example --password "a long passphrase" --first-name Carlo --last-name Cruz\n  $ labctl user add --role client --email buyer@meats.example --password "a long passphrase" --username meatsbuyer \\\n      --company "Meats Inc." --lto LTO-2026-01 --classification Importer --contact "+63 917 123 4567"',
    )
    .action(async ({ passwordStdin, ...raw }: Record<string, unknown>) => {
      if (raw.password === undefined) {
        raw.password = await readSecret({ prompt: `Password for ${String(raw.email)}`, stdinFlag: '--password-stdin', fromStdin: Boolean(passwordStdin), confirm: true });
      } else if (passwordStdin) {
        throw new UsageError('Give the password with --password or --password-stdin, not both.');
      }
      const { json, ...account } = parseAddOptions(raw);
      return withRuntime(async (rt) => {
        const created = await addAccount(rt.db, rt.clock, account);
        if (json) out(JSON.stringify({ id: created.id, role: created.role, email: created.email, username: created.username }));
        else out(`Added ${created.role} #${created.id} ${created.email}`);
      });
    });

  user
    .command('list')
    .description('list every account with its role and status')
    .option('--json', 'print a JSON array')
    .addHelpText('after', '\nExamples:\n  $ labctl user list\n  $ labctl user list --json')
    .action((opts: { json?: boolean }) =>
      withRuntime(async (rt) => {
        const accounts = await listAccounts(rt.db);
        if (opts.json) out(JSON.stringify(accounts));
        else if (accounts.length === 0) info('No accounts yet: add one with `labctl user add`.');
        else out(formatTable(LIST_COLUMNS, accounts.map(listRow)));
      }),
    );

  user
    .command('disable')
    .description('disable an account: it can no longer log in, and its sessions end at once')
    .argument('<email>', 'e-mail address or username of the account')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', '\nExamples:\n  $ labctl user disable rosa@lab.example\n  $ labctl user disable rosa@lab.example --json')
    .action((identifier: string, opts: { json?: boolean }) =>
      withRuntime(async (rt) => {
        const disabled = await disableAccount(rt.db, rt.clock, identifier);
        if (opts.json) out(JSON.stringify({ id: disabled.id, email: disabled.email, status: disabled.deletionStatus }));
        else info(`Disabled ${disabled.email}; its sessions have ended.`);
      }),
    );

  user
    .command('reset-password')
    .description('set a new random password and print it once, set one you choose, or e-mail a reset code with --send-code')
    .argument('<email>', 'e-mail address or username of the account')
    .option('--prompt', 'ask for the new password on the terminal (hidden) instead of making a random one')
    .option('--password-stdin', 'read the new password from standard input instead of making a random one')
    .option('--send-code', 'e-mail a password reset code instead (the user picks the new password on /forget)')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', '\nExamples:\n  $ labctl user reset-password rosa@lab.example\n  $ labctl user reset-password rosa@lab.example --send-code\n  $ labctl user reset-password rosa@lab.example --json')
    .action((identifier: string, opts: { sendCode?: boolean; prompt?: boolean; passwordStdin?: boolean; json?: boolean }) =>
      withRuntime(async (rt) => {
        if (opts.prompt || opts.passwordStdin) {
          if (opts.sendCode) throw new UsageError('--send-code lets the user choose the password: leave out --prompt and --password-stdin.');
          const typed = await readSecret({ prompt: `New password for ${identifier}`, stdinFlag: '--password-stdin', fromStdin: opts.passwordStdin, confirm: true });
          const password = PasswordField.safeParse(typed);
          if (!password.success) throw new UsageError(`New password: ${password.error.issues[0].message}.`);
          const { user: account } = await resetToPassword(rt.db, rt.clock, identifier, password.data);
          if (opts.json) out(JSON.stringify({ email: account.email, passwordSet: true }));
          else info(`Set the new password of ${account.email}; its sessions have ended.`);
          return;
        }
        if (opts.sendCode) {
          const reset = await startPasswordReset(accountDeps(rt), identifier);
          if (opts.json) out(JSON.stringify({ email: reset.email, codeSent: true }));
          else info(`Queued a password reset code for ${reset.email}; the running server (labctl serve) sends it.`);
          return;
        }
        const { user: account, password } = await resetToRandomPassword(rt.db, rt.clock, identifier);
        if (opts.json) {
          out(JSON.stringify({ email: account.email, password }));
          return;
        }
        info(`New password for ${account.email} (shown only now; its sessions have ended):`);
        out(password);
      }),
    );
}
