import fs from 'node:fs/promises';
import { createElement } from 'react';
import type { Command } from 'commander';
import { ANALYTES, FAMILY_LABELS, findAnalyte, purposeLabel, type Purpose } from '../../server/domain/catalog.js';
import { completionOf, FAMILY_COMPLETION_KEY } from '../../server/domain/completion.js';
import { formatPhp } from '../../server/domain/fees.js';
import { can } from '../../server/domain/policies.js';
import { familiesOf } from '../../server/domain/requestShape.js';
import { RejectionReason } from '../../server/domain/requestMessages.js';
import { applyTransition, REQUEST_STATUSES, STATUS_DISPLAY, type RequestStatus, type Transition } from '../../server/domain/requestStatus.js';
import { MAX_PAGE_SIZE, PageQuery } from '../../server/domain/paging.js';
import { listDeskRequests } from '../../server/services/requests/desk.js';
import type { PageRequest } from '../../server/services/requests/lists.js';
import { withSamples, type RequestView } from '../../server/services/requests/read.js';
import { signedRelease } from '../../server/services/certificates/release.js';
import { amendmentNotesOfRequest } from '../../server/services/certificates/reports.js';
import { amendedReadingText } from '../../server/domain/certificate.js';
import { OUTCOME_TEXT } from '../../server/domain/specifications.js';
import { approveRequest, rejectRequest, type DeskDeps } from '../../server/services/requests/transitions.js';
import { analysesOf } from '../../server/services/results/read.js';
import { AppError } from '../../server/errors.js';
import { actingAccount } from '../actor.js';
import { io } from '../io.js';
import { resolveRequest } from '../requestRef.js';
import { AbortError, info, out, UsageError, withRuntime, type Runtime } from '../runtime.js';
import { readSecret } from '../secret.js';
import { confirm, printTable, printViewOrText, startProgress, terminalWidth } from '../terminal.js';
import { requestDetailsText, type RequestDocument } from '../views/requestDetailsText.js';

/** What the desk says after each transition (SPEC section 8). */
const DESK_MESSAGES = {
  released: 'Request released successfully',
  rejectedPending: 'Request rejected successfully!',
  rejectedForRelease: 'Request has been rejected',
} as const;

/**
 * How a remark reads (DESIGN.md section 10, README "One colour language"): a positive is a warning,
 * the word with a sign and amber where colour shows; a negative is plain, never red.
 */
const REMARK_CELLS = { positive: { text: '⚠ positive', colour: 'yellow' }, negative: { text: 'negative', colour: undefined } } as const;
// The statement of conformity in the same language: a warning sign and the word, never colour alone.
const CONFORMITY_CELLS = {
  does_not_conform: { text: `⚠ ${OUTCOME_TEXT.does_not_conform}`, colour: 'yellow' },
  inconclusive: { text: `⚠ ${OUTCOME_TEXT.inconclusive}`, colour: 'yellow' },
  conforms: { text: OUTCOME_TEXT.conforms, colour: undefined },
} as const;

const STATUS_COLOURS: Record<RequestStatus, string> = {
  PENDING_REVIEW: 'yellow',
  FOR_TESTING: 'cyan',
  FOR_RELEASE: 'magenta',
  RELEASED: 'green',
  REJECTED: 'red',
};

/** 'for-release', 'FOR RELEASE' and 'for_release' all name FOR_RELEASE. */
function parseStatus(text: string): RequestStatus {
  const status = text.trim().toUpperCase().replace(/[\s-]+/g, '_');
  if (!(REQUEST_STATUSES as readonly string[]).includes(status)) {
    throw new UsageError(`Unknown status "${text}": use one of ${REQUEST_STATUSES.join(', ')}.`);
  }
  return status as RequestStatus;
}

const testsSelected = (r: RequestView) => familiesOf(r.tests).map((f) => FAMILY_LABELS[f]).join(', ');
const describeRequest = (r: RequestView) => `request ${r.controlNumber ?? r.requestId} (${r.companyName}, ${STATUS_DISPLAY[r.requestStatus]})`;

/** --limit and --offset, checked as the API checks ?limit= and ?offset=. */
function parsePage(opts: { limit?: string; offset?: string }): PageRequest {
  const page = PageQuery.safeParse(opts);
  if (!page.success) {
    const problems = page.error.issues.map((issue) => {
      const flag = issue.path[0] as 'limit' | 'offset';
      return `--${flag} ${issue.message} (got "${opts[flag]}")`;
    });
    throw new UsageError(`${problems.join('; ')}.`);
  }
  return page.data;
}

interface ListCommandOptions {
  status?: string;
  limit?: string;
  offset?: string;
  json?: boolean;
}

async function listCommand(opts: ListCommandOptions): Promise<void> {
  const status = opts.status === undefined ? undefined : parseStatus(opts.status);
  const page = parsePage(opts);
  await withRuntime(async (rt) => {
    const requests = await listDeskRequests(rt.db, { status, ...page });
    if (opts.json) return out(JSON.stringify(requests));
    await printTable({
      columns: [
        { header: 'ID', align: 'right' }, { header: 'Control Number' }, { header: 'Status' }, { header: 'Submission Date' },
        { header: 'Company' }, { header: 'Client Classification' }, { header: 'Tests Selected' },
      ],
      rows: requests.map((r) => [
        String(r.requestId), r.controlNumber ?? '', STATUS_DISPLAY[r.requestStatus], r.submissionDate.slice(0, 10),
        r.companyName, r.clientClassification, testsSelected(r),
      ]),
      cellColor: (row, column) => (column === 2 ? STATUS_COLOURS[requests[row].requestStatus] : undefined),
      emptyText: `There are no ${status ? `${STATUS_DISPLAY[status]} ` : ''}requests${page.offset ? ` after the first ${page.offset}` : ''}.`,
    });
  });
}

async function showCommand(ref: string, opts: { json?: boolean }): Promise<void> {
  await withRuntime(async (rt) => {
    const [request] = await withSamples(rt.db, [await resolveRequest(rt.db, ref)]);
    const order = new Map(ANALYTES.map((a, i) => [a.code, i]));
    const results = (await analysesOf(rt.db, [request.requestId])).sort(
      (a, b) => a.samplePosition - b.samplePosition || order.get(a.testCode)! - order.get(b.testCode)!,
    );
    const amendments = await amendmentNotesOfRequest(rt.db, request.requestId);
    if (opts.json) return out(JSON.stringify({ ...request, results, amendments }));
    const amendedIn = new Map(amendments.map((n) => [`${n.samplePosition}:${n.testCode}`, n.reportNumber]));

    const completion = completionOf(results);
    const doc: RequestDocument = {
      title: `Request ${request.requestId}${request.controlNumber ? `, Control Number: ${request.controlNumber}` : ''}`,
      fields: [
        ['Status', STATUS_DISPLAY[request.requestStatus]],
        ['Submission Date', request.submissionDate.slice(0, 10)],
        ['Company', `${request.companyName} (${request.clientClassification}${request.ltoNumber ? `, LTO ${request.ltoNumber}` : ''})`],
        ['Representative', `${request.representativeName}, ${request.contactNumber}, ${request.emailAddress}`],
        ['Purpose of Testing', request.otherTestingPurpose ?? purposeLabel(request.testingPurpose as Purpose, rt.config.labShortName)],
        ['Sample Category', request.sampleCategory],
        ['Lot/Batch No', request.lotBatchNo ?? ''],
        ['Sample Source', request.sampleSource ?? ''],
        ['Sampler Name', request.samplerName ?? ''],
        ['Production / Expiry / Sampling', [request.productionDate, request.expiryDate, request.samplingDate].map((d) => d ?? '-').join(' / ')],
        ['Tests', request.tests.map((code) => findAnalyte(code)?.label ?? code).join(', ')],
        ['Estimated Fee', `PHP ${formatPhp(request.estimatedFee)}${request.dueDate ? `, expected by ${request.dueDate}` : ''}`],
        ...(results.length
          ? [['Completion', familiesOf(request.tests).map((f) => `${FAMILY_LABELS[f]} ${completion[FAMILY_COMPLETION_KEY[f]] ? 'Completed' : 'Pending'}`).join(', ')] as const]
          : []),
      ],
      tables: [
        {
          title: 'Samples',
          columns: [{ header: '#', align: 'right' }, { header: 'Sample Type Description' }],
          rows: request.samples.map((s) => [String(s.position), s.sampleTypeDescription]),
        },
        {
          title: 'Results',
          columns: [
            { header: '#', align: 'right' }, { header: 'Test' }, { header: 'Value' }, { header: 'Remark' }, { header: 'Analysis Date' }, { header: 'Conformity' }, { header: 'Amended' },
          ],
          rows: results.map((a) => [
            String(a.samplePosition),
            findAnalyte(a.testCode)?.label ?? a.testCode,
            a.value ?? '',
            a.remark ? REMARK_CELLS[a.remark].text : '',
            a.analysisDate ?? '',
            a.decision ? CONFORMITY_CELLS[a.decision.outcome].text : '',
            amendedIn.has(`${a.samplePosition}:${a.testCode}`) ? `✎ ${amendedIn.get(`${a.samplePosition}:${a.testCode}`)}` : '',
          ]),
          cellColor: (row, column) => {
            const { remark, decision } = results[row];
            if (column === 3 && remark) return REMARK_CELLS[remark].colour;
            return column === 5 && decision ? CONFORMITY_CELLS[decision.outcome].colour : undefined;
          },
          emptyText: request.controlNumber ? 'No results yet.' : 'No analyses: the request has not been approved.',
        },
        // Amended results, marked where they are read (issue 25): the old and new reading, who, when and why.
        ...(amendments.length
          ? [{
            title: 'Amendments',
            columns: [{ header: '#', align: 'right' as const }, { header: 'Test' }, { header: 'Was' }, { header: 'Now' }, { header: 'Report' }, { header: 'By' }, { header: 'On' }, { header: 'Reason' }],
            rows: amendments.map((n) => [
              String(n.samplePosition), findAnalyte(n.testCode)?.label ?? n.testCode, amendedReadingText(n.before), amendedReadingText(n.after),
              n.reportNumber, n.signerName, n.issuedAt.slice(0, 10), n.reason ?? '',
            ]),
          }]
          : []),
      ],
    };
    const width = terminalWidth();
    await printViewOrText(
      async () => createElement((await import('../views/RequestDetails.js')).RequestDetails, { doc, width }),
      () => requestDetailsText(doc, width),
      { rows: results.length },
    );
  });
}

interface TransitionOptions {
  as?: string;
  yes?: boolean;
  reason?: string;
  json?: boolean;
  passwordStdin?: boolean;
  fromFile?: string;
}

/** --reason, checked as the API checks it; an empty one is no reason. */
function rejectionReason(text: string | undefined): string | null {
  if (text === undefined) return null;
  const reason = RejectionReason.safeParse(text);
  if (!reason.success) throw new UsageError(`--reason: ${reason.error.issues[0].message}.`);
  return reason.data || null;
}

const ACTIONS = { approve: 'request:approve', reject: 'request:reject', release: 'request:release' } as const;

const PAST = { approve: 'approved', reject: 'rejected', release: 'released' } as const;
const DOING = { approve: 'Approving', reject: 'Rejecting', release: 'Releasing' } as const;

/** Does `transition` to one request already resolved and checked; says what happened. */
async function transitionOne(
  deps: DeskDeps,
  actor: Awaited<ReturnType<typeof actingAccount>>,
  transition: Transition,
  request: RequestView,
  extra: { reason: string | null; password: string },
): Promise<{ message: string; outcome: Record<string, unknown> }> {
  if (transition === 'approve') {
    const { controlNumber } = await approveRequest(deps, actor, request.requestId);
    return { message: `Request ${request.requestId} approved. Control Number: ${controlNumber}`, outcome: { requestStatus: 'FOR_TESTING', controlNumber } };
  }
  if (transition === 'reject') {
    const outcome = await rejectRequest(deps, actor, request.requestId, {}, extra.reason);
    return { message: request.requestStatus === 'FOR_RELEASE' ? DESK_MESSAGES.rejectedForRelease : DESK_MESSAGES.rejectedPending, outcome };
  }
  const outcome = await signedRelease(deps, actor, request.requestId, extra.password);
  return { message: `${DESK_MESSAGES.released}. Certificate ${String(outcome.reportNumber)} issued.`, outcome };
}

/** Release is a signature (DESIGN.md section 10): the account's password, typed again (once for a batch). */
const releasePassword = (transition: Transition, email: string, opts: TransitionOptions) =>
  transition === 'release'
    ? readSecret({ prompt: `Password of ${email} (signs the release)`, stdinFlag: '--password-stdin', fromStdin: Boolean(opts.passwordStdin) })
    : Promise.resolve('');

async function transitionCommand(transition: Transition, refs: string[], opts: TransitionOptions): Promise<void> {
  const listed = opts.fromFile === undefined ? [] : await readRequestList(opts.fromFile, Boolean(opts.passwordStdin));
  const all = [...refs, ...listed];
  if (all.length === 0) throw new UsageError(`Name the requests to ${transition}: ids or control numbers as arguments, or --from-file <file>.`);
  if (all.length > 1 || opts.fromFile !== undefined) return batchTransition(transition, all, opts);
  const [ref] = all;
  await withRuntime(async (rt: Runtime) => {
    const actor = await actingAccount(rt.db, opts.as, (a) => can(a, ACTIONS[transition]), `only staff and admin accounts may ${transition} requests`);
    const request = await resolveRequest(rt.db, ref);
    // Say why before asking anything; the service checks again inside its transaction.
    const check = applyTransition(request.requestStatus, transition);
    if (!check.ok) throw new AbortError(check.reason);
    const reason = transition === 'reject' ? rejectionReason(opts.reason) : null;
    if (transition === 'reject' && !(await confirm(`Reject ${describeRequest(request)}?`, { assumeYes: opts.yes }))) {
      throw new AbortError('Not rejected.');
    }
    const deps: DeskDeps = { db: rt.db, clock: rt.clock, labName: rt.config.labName, logger: rt.logger };
    const password = await releasePassword(transition, actor.email, opts);
    const { message, outcome } = await transitionOne(deps, actor, transition, request, { reason, password });
    out(opts.json ? JSON.stringify({ requestId: request.requestId, controlNumber: request.controlNumber, ...outcome }) : message);
  });
}

/** --from-file: one id or control number per line; blank lines and lines starting with # are skipped. */
async function readRequestList(file: string, stdinTaken: boolean): Promise<string[]> {
  let text: string;
  if (file === '-') {
    if (stdinTaken) throw new UsageError('--from-file - and --password-stdin both read standard input: give the list as a file.');
    const chunks: Buffer[] = [];
    for await (const chunk of io().stdin) chunks.push(Buffer.from(chunk as Uint8Array));
    text = Buffer.concat(chunks).toString('utf8');
  } else {
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (err) {
      throw new AbortError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
    }
  }
  const refs = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  if (refs.length === 0) throw new UsageError(`${file} names no request: write one id or control number per line.`);
  return refs;
}

/** Why one request of a batch was not done: a refusal the user can act on. Anything else is a bug and stops the batch. */
function refusalOf(err: unknown): { message: string; code: string } {
  if (err instanceof AbortError) return { message: err.message, code: err instanceof UsageError ? 'usage' : 'failed' };
  if (err instanceof AppError) return { message: err.message, code: err.code };
  throw err;
}

export interface BatchItem {
  request: string;
  ok: boolean;
  requestId?: number;
  controlNumber?: string | null;
  error?: { message: string; code: string };
  [outcome: string]: unknown;
}

/**
 * Several requests: each is done in its own transaction and reported on its own line (or as one
 * entry of --json's "results"), whether it was done or why not; the others go on. Exit 1 when any
 * was not done.
 */
async function batchTransition(transition: Transition, refs: string[], opts: TransitionOptions): Promise<void> {
  const reason = transition === 'reject' ? rejectionReason(opts.reason) : null;
  await withRuntime(async (rt: Runtime) => {
    const actor = await actingAccount(rt.db, opts.as, (a) => can(a, ACTIONS[transition]), `only staff and admin accounts may ${transition} requests`);
    if (transition === 'reject' && !(await confirm(`Reject ${refs.length} requests (${refs.slice(0, 5).join(', ')}${refs.length > 5 ? ', ...' : ''})?`, { assumeYes: opts.yes }))) {
      throw new AbortError('Not rejected.');
    }
    const password = await releasePassword(transition, actor.email, opts);
    const deps: DeskDeps = { db: rt.db, clock: rt.clock, labName: rt.config.labName, logger: rt.logger };
    const progress = await startProgress(DOING[transition], refs.length, 'requests', { json: opts.json, plainLines: true });
    const results: BatchItem[] = [];
    for (const [i, ref] of refs.entries()) {
      try {
        const request = await resolveRequest(rt.db, ref);
        const check = applyTransition(request.requestStatus, transition);
        if (!check.ok) throw new AbortError(check.reason);
        const { message, outcome } = await transitionOne(deps, actor, transition, request, { reason, password });
        results.push({ request: ref, ok: true, requestId: request.requestId, controlNumber: request.controlNumber, ...outcome });
        if (!opts.json) out(`${ref}: ${message}`);
      } catch (err) {
        const error = refusalOf(err);
        results.push({ request: ref, ok: false, error });
        if (!opts.json) out(`${ref}: not ${PAST[transition]}: ${error.message}`);
      }
      progress.update(i + 1);
    }
    await progress.finish();
    const failed = results.filter((r) => !r.ok).length;
    if (opts.json) out(JSON.stringify({ results, done: results.length - failed, failed }));
    if (failed > 0) throw new AbortError(`${failed} of ${refs.length} requests not ${PAST[transition]}.`);
    if (!opts.json) info(`${refs.length} requests ${PAST[transition]}.`);
  });
}

export function registerRequests(command: Command): void {
  const requests = command
    .addHelpText(
      'after',
      '\nExamples:\n  $ labctl requests list --status pending_review\n  $ labctl requests show 2026-0012\n  $ labctl requests approve 41 --as staff@demo.lab\n  $ labctl requests reject 2026-0012 --as staff@demo.lab --yes\n  $ labctl requests release 2026-0012 --as staff@demo.lab',
    );

  requests
    .command('list')
    .description('list requests, oldest submission first')
    .option('-s, --status <status>', `only requests in this status: ${REQUEST_STATUSES.join(', ')} (any case, - or _)`)
    .option('--limit <n>', `at most this many requests (1 to ${MAX_PAGE_SIZE}); all when left out`)
    .option('--offset <n>', 'skip this many requests first', '0')
    .option('--json', 'print the requests as JSON (the API\'s "as read" shape)')
    .addHelpText('after', '\nExamples:\n  $ labctl requests list --status for-release\n  $ labctl requests list --limit 100 --offset 200\n  $ labctl requests list --json | jq length')
    .action(listCommand);

  requests
    .command('show')
    .description('show one request with its samples and results')
    .argument('<request>', 'request id or control number')
    .option('--json', 'print the request, its samples and its results as JSON')
    .addHelpText('after', '\nExamples:\n  $ labctl requests show 12\n  $ labctl requests show 2026-0012 --json')
    .action(showCommand);

  const transitions: Array<[Transition, string]> = [
    ['approve', 'approve a PENDING REVIEW request: it gets its control number and goes to FOR TESTING'],
    ['reject', 'reject a PENDING REVIEW or FOR RELEASE request (asks first on a terminal)'],
    ['release', 'release a FOR RELEASE request: the client can read its results'],
  ];
  for (const [transition, description] of transitions) {
    const command = requests
      .command(transition)
      .description(description)
      .argument('[requests...]', 'request ids or control numbers (several: each is done and reported on its own)')
      .option('--from-file <file>', 'also the requests listed in this file, one id or control number per line (- for standard input)')
      .requiredOption('--as <email>', 'the active staff or admin account doing it (recorded in the audit log)')
      .option('--json', 'print the outcome as JSON; for several requests {"results": [{"request", "ok", ...}], "done", "failed"}');
    if (transition === 'reject') {
      command
        .option('--reason <text>', 'why: stored on the request, e-mailed to the client and shown on its timeline')
        .option('-y, --yes', 'reject without asking (required when there is no terminal)');
    }
    if (transition === 'release') command.option('--password-stdin', 'read the password that signs the release from standard input (required when there is no terminal)');
    const extra = transition === 'reject' ? ' --reason "Samples arrived thawed" --yes' : '';
    command
      .addHelpText('after', `\nExample:\n  $ labctl requests ${transition} 2026-0012 --as staff@demo.lab${extra}${transition === 'release' ? '\n  $ labctl requests release 2026-0012 --as staff@demo.lab --password-stdin < password.txt' : ''}\n  $ labctl requests ${transition} 2026-0012 2026-0013 2026-0014 --as staff@demo.lab${extra}\n  $ labctl requests ${transition} --from-file today.txt --as staff@demo.lab${extra} --json`)
      .action((refs: string[], opts: TransitionOptions) => transitionCommand(transition, refs, opts));
  }
}
