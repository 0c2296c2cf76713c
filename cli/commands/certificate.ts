// labctl certificate <request>: the certificate of analysis of a released request as the portal
// serves it, written to a file (or stdout with --out -). The operator reads any report, as
// `requests show` does; the download is audited without an account. Its QR code opens the portal's
// PUBLIC_URL (this process's, or the one `labctl serve` recorded in the database); with neither the
// command refuses rather than print a code for an address nobody can open.
// labctl certificate withdraw <report>: staff withdraw a released report, signing with their password.
import path from 'node:path';
import type { Command } from 'commander';
import { ReportNumberParam, verificationUrl, WithdrawalInput } from '../../server/domain/certificate.js';
import { can } from '../../server/domain/policies.js';
import { renderCertificate } from '../../server/services/certificates/pdf.js';
import { readIssuedReport } from '../../server/services/certificates/reports.js';
import { withdrawReport } from '../../server/services/certificates/withdraw.js';
import { publicUrlOf } from '../../server/services/settings.js';
import { actingAccount } from '../actor.js';
import { io } from '../io.js';
import { FORCE_HELP, writeOutputFile } from '../outputFile.js';
import { AbortError, info, out, UsageError, withRuntime } from '../runtime.js';
import { readSecret } from '../secret.js';
import { resolveRequest } from '../requestRef.js';

export const NO_PUBLIC_URL =
  "The certificate's QR code needs the portal's public address, and none is known: set PUBLIC_URL (e.g. PUBLIC_URL=https://lab.example.org), as in the server's settings, or start `labctl serve` with PUBLIC_URL once so that labctl reads it from the database.";

interface CertificateOptions {
  out?: string;
  version?: string;
  json?: boolean;
  force?: boolean;
}

async function certificateCommand(ref: string, opts: CertificateOptions): Promise<void> {
  const version = opts.version === undefined ? undefined : Number(opts.version);
  if (version !== undefined && !(Number.isInteger(version) && version >= 1 && version <= 10_000)) {
    throw new UsageError(`--version must be a report version, 1 or more (got "${opts.version}").`);
  }
  if (opts.out === '-' && io().stdout.isTTY) throw new UsageError('Not writing a PDF to the terminal: redirect stdout or pass --out <file>.');
  if (opts.out === '-' && opts.json) throw new UsageError('--out - writes the PDF to stdout, where --json would print its JSON: pass one of them.');
  await withRuntime(async (rt) => {
    const request = await resolveRequest(rt.db, ref);
    const report = await readIssuedReport(rt, request.requestId, version, { actorUserId: null });
    // The QR code must open the portal's real address: never a guess such as localhost.
    const base = await publicUrlOf(rt.db, rt.config.publicUrl);
    if (!base) throw new AbortError(NO_PUBLIC_URL);
    const pdf = await renderCertificate(
      report,
      { name: rt.config.labName, shortName: rt.config.labShortName, address: rt.config.labAddress },
      verificationUrl(base, report.verificationToken),
    );
    if (opts.out === '-') {
      io().stdout.write(pdf);
      return;
    }
    const file = path.resolve(opts.out ?? `certificate-${report.reportNumber}.pdf`);
    await writeOutputFile(file, pdf, { force: opts.force });
    if (opts.json) out(JSON.stringify({ reportNumber: report.reportNumber, controlNumber: report.content.controlNumber, file, bytes: pdf.length }));
    else info(`Wrote certificate ${report.reportNumber} to ${file}`);
  });
}

interface WithdrawOptions {
  as?: string;
  reason?: string;
  passwordStdin?: boolean;
  json?: boolean;
}

async function withdrawCommand(ref: string, opts: WithdrawOptions): Promise<void> {
  const reportNumber = ReportNumberParam.safeParse(ref);
  if (!reportNumber.success) throw new UsageError(`<report> ${reportNumber.error.issues[0].message} (got "${ref}").`);
  const reason = WithdrawalInput.shape.reason.safeParse(opts.reason ?? '');
  if (!reason.success) throw new UsageError(`--reason: ${reason.error.issues[0].message}.`);
  await withRuntime(async (rt) => {
    const actor = await actingAccount(rt.db, opts.as, (a) => can(a, 'certificate:withdraw'), 'only staff and admin accounts may withdraw certificates');
    // A withdrawal is a signature, like a release: the account's password, typed again.
    const password = await readSecret({ prompt: `Password of ${actor.email} (signs the withdrawal)`, stdinFlag: '--password-stdin', fromStdin: Boolean(opts.passwordStdin) });
    const deps = { db: rt.db, clock: rt.clock, labName: rt.config.labName, logger: rt.logger };
    const withdrawn = await withdrawReport(deps, actor, reportNumber.data, { reason: reason.data, password });
    out(opts.json ? JSON.stringify(withdrawn) : `Certificate ${withdrawn.reportNumber} withdrawn. The client is e-mailed; the report stays readable, marked withdrawn.`);
  });
}

/** `labctl certificate`: configures the command the program created (cli/program.ts loads it lazily). */
export function registerCertificate(command: Command): void {
  command
    .argument('<request>', 'request id or control number')
    .option('-o, --out <file>', 'where to write the PDF (default certificate-<report number>.pdf; - for stdout)')
    .option('--version <n>', 'an earlier issue of the report (1 is the one issued on release)')
    .option('--force', FORCE_HELP)
    .option('--json', 'print the report number and file written as JSON')
    .addHelpText('after', '\nExamples:\n  $ labctl certificate 2026-0012\n  $ labctl certificate 2026-0012 --out coa.pdf --force\n  $ labctl certificate 2026-0012 --version 1 --out - > original.pdf\n  $ labctl certificate withdraw 2026-0012-R1 --as staff@demo.lab --reason "Samples mixed up"')
    .action(certificateCommand);
  command
    .command('withdraw')
    .description('withdraw a released report: it stays readable, marked withdrawn, and its verification page says so; the client is e-mailed')
    .argument('<report>', 'the report number, e.g. 2026-0012-R1')
    .requiredOption('--as <email>', 'the active staff or admin account signing the withdrawal (recorded in the audit log)')
    .requiredOption('--reason <text>', 'why the report is withdrawn (printed on it and e-mailed to the client)')
    .option('--password-stdin', 'read the password that signs the withdrawal from standard input (required when there is no terminal)')
    .option('--json', 'print the withdrawn report as JSON')
    .addHelpText('after', '\nExamples:\n  $ labctl certificate withdraw 2026-0012-R1 --as staff@demo.lab --reason "Samples mixed up"\n  $ labctl certificate withdraw 2026-0012-R1 --as staff@demo.lab --reason "Samples mixed up" --password-stdin < password.txt')
    .action(withdrawCommand);
}
