// Traceability from a terminal (issue 15): `labctl requests receive`, `labctl labels` and
// `labctl audit`. Each parses its flags with the API's zod schemas and calls the same services.
import path from 'node:path';
import type { Command } from 'commander';
import type { z } from 'zod';
import { auditCsv, AuditFilter } from '../../server/domain/auditTrail.js';
import { can } from '../../server/domain/policies.js';
import { describeReceipt, ReceiptInput } from '../../server/domain/reception.js';
import { listAuditTrail } from '../../server/services/auditTrail.js';
import { sampleLabels } from '../../server/services/requests/labels.js';
import { recordReceipt } from '../../server/services/requests/reception.js';
import { actingAccount } from '../actor.js';
import { io } from '../io.js';
import { FORCE_HELP, writeOutputFile } from '../outputFile.js';
import { terminalSafe } from '../safeText.js';
import { info, out, UsageError, withRuntime } from '../runtime.js';
import { printTable } from '../terminal.js';
import { resolveRequest } from '../requestRef.js';

/** Zod issues as the flags that caused them, e.g. "--containers must be at least 1". */
function usageFrom(error: z.ZodError, flags: Record<string, string>): UsageError {
  return new UsageError(
    `${error.issues.map((issue) => `${flags[String(issue.path[0])] ?? String(issue.path[0] ?? 'input')} ${issue.message}`).join('; ')}.`,
  );
}

interface ReceiveOptions {
  as?: string;
  containers?: string;
  condition?: string;
  reason?: string;
  temperature?: string;
  at?: string;
  json?: boolean;
}

const RECEIVE_FLAGS = { receivedAt: '--at', containers: '--containers', condition: '--condition', reason: '--reason', temperatureC: '--temperature' };

async function receiveCommand(ref: string, opts: ReceiveOptions): Promise<void> {
  const parsed = ReceiptInput.safeParse({
    receivedAt: opts.at ?? new Date().toISOString(),
    containers: opts.containers,
    condition: opts.condition,
    reason: opts.reason,
    temperatureC: opts.temperature,
  });
  if (!parsed.success) throw usageFrom(parsed.error, RECEIVE_FLAGS);
  await withRuntime(async (rt) => {
    const actor = await actingAccount(rt.db, opts.as, (a) => can(a, 'request:receive'), 'only staff and admin accounts may record sample receipts');
    const request = await resolveRequest(rt.db, ref);
    const receipt = await recordReceipt({ db: rt.db, clock: rt.clock }, actor, request.requestId, parsed.data);
    if (opts.json) return out(JSON.stringify(receipt));
    out(`Samples of ${request.controlNumber ?? `request ${request.requestId}`} received: ${describeReceipt(receipt)}.`);
    if (receipt.flagged) info('Warning: this receipt is flagged; the testers and the client will see it.');
  });
}

interface LabelsOptions {
  out?: string;
  json?: boolean;
  force?: boolean;
}

async function labelsCommand(ref: string, opts: LabelsOptions): Promise<void> {
  if (opts.out === '-' && opts.json) throw new UsageError('--out - writes the PDF to stdout, where --json would print its JSON: pass one of them.');
  await withRuntime(async (rt) => {
    const request = await resolveRequest(rt.db, ref);
    const { controlNumber, pdf } = await sampleLabels(rt.db, request.requestId, rt.config.labShortName);
    if (opts.out === '-') {
      io().stdout.write(pdf);
      return;
    }
    const file = path.resolve(opts.out ?? `labels-${controlNumber}.pdf`);
    await writeOutputFile(file, pdf, { force: opts.force });
    if (opts.json) return out(JSON.stringify({ controlNumber, file, bytes: pdf.length }));
    out(file);
    info(`Wrote the labels of ${controlNumber} to ${file}.`);
  });
}

interface AuditOptions {
  request?: string;
  user?: string;
  action?: string;
  since?: string;
  until?: string;
  limit?: string;
  json?: boolean;
  format?: string;
}

const AUDIT_FLAGS = { request: '--request', user: '--user', action: '--action', since: '--since', until: '--until' };

async function auditCommand(opts: AuditOptions): Promise<void> {
  const filter = AuditFilter.safeParse({ request: opts.request, user: opts.user, action: opts.action, since: opts.since, until: opts.until });
  if (!filter.success) throw usageFrom(filter.error, AUDIT_FLAGS);
  const format = opts.json ? 'json' : (opts.format ?? 'table');
  if (!['json', 'csv', 'table'].includes(format)) throw new UsageError(`--format must be csv or table (got "${opts.format}"); use --json for JSON.`);
  const limit = opts.limit === undefined ? undefined : Number(opts.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new UsageError(`--limit must be a whole number of at least 1 (got "${opts.limit}").`);
  await withRuntime(async (rt) => {
    const { rows } = await listAuditTrail(rt.db, filter.data, { limit });
    if (format === 'json') return out(JSON.stringify(rows));
    if (format === 'csv') return void io().stdout.write(terminalSafe(auditCsv(rows)));
    await printTable({
      columns: [{ header: 'At' }, { header: 'Actor' }, { header: 'Action' }, { header: 'Request' }, { header: 'Details' }],
      rows: rows.map((r) => [
        r.at, r.actorName ? `${r.actorName} (${r.actorRole})` : 'system', r.action, r.controlNumber ?? (r.requestId === null ? '' : String(r.requestId)),
        r.details === null ? '' : JSON.stringify(r.details),
      ]),
      emptyText: 'No audit entries match.',
    });
  });
}

/** `labctl requests receive`: added to the requests command group. */
export function registerReceive(requests: Command): void {
  requests
    .command('receive')
    .description('record the arrival of an approved request\'s samples (once per request)')
    .argument('<request>', 'request id or control number')
    .requiredOption('--as <email>', 'the active staff or admin account receiving them (recorded in the audit log)')
    .requiredOption('--containers <n>', 'number of containers received')
    .requiredOption('--condition <condition>', 'condition on arrival: acceptable or not-acceptable')
    .option('--reason <text>', 'why the samples are not acceptable (required with --condition not-acceptable)')
    .option('--temperature <celsius>', 'temperature on arrival in °C (above 10 °C is flagged for microbiology)')
    .option('--at <datetime>', 'when they arrived, ISO 8601 with offset (default: now)')
    .option('--json', 'print the receipt as JSON')
    .addHelpText('after', '\nExamples:\n  $ labctl requests receive 2026-0012 --as staff@demo.lab --containers 3 --condition acceptable --temperature 4\n  $ labctl requests receive 2026-0012 --as staff@demo.lab --containers 1 --condition not-acceptable --reason "Bag leaking"')
    .action(receiveCommand);
}

/** `labctl labels`: configures the command the program created (cli/program.ts loads it lazily). */
export function registerLabels(command: Command): void {
  command
    .argument('<request>', 'request id or control number')
    .option('--out <file>', 'where to write the PDF ("-" for stdout; default labels-<control number>.pdf)')
    .option('--force', FORCE_HELP)
    .option('--json', 'print {"controlNumber","file","bytes"} instead of the file name')
    .addHelpText('after', '\nExamples:\n  $ labctl labels 2026-0012\n  $ labctl labels 2026-0012 --out - | lp -d labels')
    .action(labelsCommand);
}

/** `labctl audit`: configures the command the program created (cli/program.ts loads it lazily). */
export function registerAudit(command: Command): void {
  command
    .option('--request <request>', 'only entries of this request (id or control number)')
    .option('--user <user>', 'only entries by this user (username, e-mail or id)')
    .option('--action <action>', 'only this action (request.approve) or family of actions (request)')
    .option('--since <date>', 'only entries from this day on (YYYY-MM-DD)')
    .option('--until <date>', 'only entries up to this day (YYYY-MM-DD)')
    .option('--limit <n>', 'at most this many entries')
    .option('--json', 'print the entries as JSON')
    .option('--format <format>', 'table (default) or csv')
    .addHelpText('after', '\nExamples:\n  $ labctl audit --request 2026-0012\n  $ labctl audit --user rosa --since 2026-03-01 --format csv > audit.csv')
    .action(auditCommand);
}
