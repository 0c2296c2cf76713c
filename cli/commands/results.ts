import fs from 'node:fs';
import type { Command } from 'commander';
import { GROUPS } from '../../server/domain/catalog.js';
import { can } from '../../server/domain/policies.js';
import { RESULTS_CSV_HEADER } from '../../server/domain/resultsCsv.js';
import { refreshStatistics } from '../../server/db/statistics.js';
import { importResults, STATISTICS_AN_IMPORT_CHANGES, type ImportOutcome, type ImportResult, type SavedRow } from '../../server/services/results/import.js';
import { findProfile, listProfiles } from '../../server/services/results/profiles.js';
import { requestIdOf, templateCsv, templateRows } from '../../server/services/results/template.js';
import { WORK_STATES, type WorkState } from '../../server/domain/queue.js';
import { DISCIPLINES, type Discipline } from '../../server/domain/roles.js';
import { actingAccount } from '../actor.js';
import { io } from '../io.js';
import { FORCE_HELP, openOutputStream } from '../outputFile.js';
import { groupedProblemLines } from '../problemReport.js';
import { AbortError, UsageError, info, out, withRuntime } from '../runtime.js';
import { formatCount } from '../table.js';
import { startProgress } from '../terminal.js';

interface ImportOptions {
  as?: string;
  dryRun?: boolean;
  json?: boolean;
  profile?: string;
  partial?: boolean;
}

async function readInput(file: string): Promise<Buffer> {
  try {
    if (file === '-') {
      const chunks: Buffer[] = [];
      for await (const chunk of io().stdin) chunks.push(Buffer.from(chunk as Uint8Array));
      return Buffer.concat(chunks);
    }
    return fs.readFileSync(file);
  } catch (err) {
    throw new AbortError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
}

const plural = (n: number, word: string) => `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;

/** A few control numbers, then how many more (--json lists them all). */
const someOf = (controlNumbers: string[], shown = 10) =>
  controlNumbers.length <= shown ? controlNumbers.join(', ') : `${controlNumbers.slice(0, shown).join(', ')} and ${formatCount(controlNumbers.length - shown)} more`;

function importSummary(o: ImportOutcome): string {
  const complete = `${plural(o.requestsComplete, 'request')} ${o.requestsComplete === 1 ? 'is' : 'are'} complete (FOR RELEASE)`;
  const lines = o.dryRun
    ? [`Dry run: ${plural(o.rows, 'row')} for ${plural(o.requests, 'request')} would be imported; afterwards ${complete}. Nothing was written.`]
    : [`Imported ${plural(o.rows, 'row')} for ${plural(o.requests, 'request')} (${plural(o.changed, 'result')} changed); ${complete}.`];
  if (o.movedToForRelease.length) lines.push(`${o.dryRun ? 'Would move' : 'Moved'} to FOR RELEASE: ${someOf(o.movedToForRelease)}`);
  if (o.movedToForTesting.length) lines.push(`${o.dryRun ? 'Would move' : 'Moved'} back to FOR TESTING: ${someOf(o.movedToForTesting)}`);
  if (o.skipped) lines.push(`Skipped ${plural(o.skipped, 'row')} of blanks, standards and controls.`);
  if (o.leftOut?.length) lines.push(`Left out ${plural(new Set(o.leftOut.map((p) => p.line)).size, 'line')} with problems (--partial): see above.`);
  return lines.join('\n');
}

/** What a dry run would save, a line per row: "line 14: 2026-0005 sample 1 nitrofuranAoz = OD450 0.412 (positive)". */
const savedLines = (saved: SavedRow[] = []) =>
  saved.map((r) => `line ${r.line}: ${r.controlNumber} sample ${r.samplePosition} ${r.testCode} = ${r.value}${r.remark ? ` (${r.remark})` : ''}${r.analysisDate ? ` ${r.analysisDate}` : ''}`);

async function importCommand(file: string, opts: ImportOptions): Promise<void> {
  const csv = await readInput(file);
  await withRuntime(async (rt) => {
    const profile = opts.profile === undefined ? undefined : findProfile(rt.config.dataDir, opts.profile);
    const actor = await actingAccount(
      rt.db,
      opts.as,
      (a) => GROUPS.some((group) => can(a, 'results:write', { group })),
      'only tester accounts (chemtester, microbiotester, molbiotester) enter results',
    );
    const progress = await startProgress(opts.dryRun ? 'Checking results' : 'Importing results', 0, 'rows', { json: opts.json, plainLines: true });
    let result: ImportResult;
    try {
      result = await importResults(rt, actor, {
        csv, profile, fileName: file === '-' ? 'standard input' : file, dryRun: opts.dryRun, partial: opts.partial, onProgress: (rows, total) => progress.update(rows, total),
      });
    } finally {
      await progress.finish();
    }
    if (result.imported && !result.outcome.dryRun) await refreshStatistics(rt.db, { vacuum: false, only: STATISTICS_AN_IMPORT_CHANGES });
    if (!opts.json) groupedProblemLines(result.warnings, 'warning: ').forEach(info);
    if (!result.imported) {
      if (!opts.json && profile && result.saved?.length) {
        info(`These rows are right (--partial would save them):\n${savedLines(result.saved).join('\n')}\nThese are not:`);
      }
      groupedProblemLines(result.problems).forEach(info);
      const lines = new Set(result.problems.map((p) => p.line)).size;
      if (opts.json) {
        const { skipped, saved } = result;
        out(JSON.stringify({ imported: false, rows: result.rows, problems: result.problems, warnings: result.warnings, ...(skipped === undefined ? {} : { skipped }), ...(saved ? { saved } : {}) }));
      }
      throw new AbortError(`${plural(result.problems.length, 'problem')} on ${plural(lines, 'line')} of ${file}; nothing was imported.`);
    }
    const { outcome } = result;
    if (!opts.json && outcome.leftOut?.length) groupedProblemLines(outcome.leftOut, 'left out: ').forEach(info);
    if (opts.json) out(JSON.stringify({ imported: !outcome.dryRun, ...outcome, warnings: result.warnings }));
    else out([...(profile ? savedLines(outcome.saved) : []), importSummary(outcome)].join('\n'));
  });
}

interface TemplateOptions {
  discipline: string;
  status?: string;
  request?: string;
  out?: string;
  force?: boolean;
  json?: boolean;
}

function parseChoice<T extends string>(flag: string, text: string, choices: readonly T[]): T {
  const value = text.trim().toLowerCase();
  if (!(choices as readonly string[]).includes(value)) throw new UsageError(`Unknown ${flag} "${text}": use one of ${choices.join(', ')}.`);
  return value as T;
}

/** Writes text to a stream, waiting when its buffer is full (a template can be large). */
async function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (!stream.write(text)) await new Promise((resolve) => stream.once('drain', resolve));
}

async function templateCommand(opts: TemplateOptions): Promise<void> {
  const discipline = parseChoice<Discipline>('--discipline', opts.discipline, DISCIPLINES);
  const state = parseChoice<WorkState>('--status', opts.status ?? 'outstanding', WORK_STATES);
  await withRuntime(async (rt) => {
    const requestId = opts.request === undefined ? undefined : await requestIdOf(rt.db, opts.request.trim());
    const filter = { discipline, state, requestId };
    const stdout = io().stdout;
    if (opts.json && !opts.out) {
      // One JSON document, written a page at a time.
      await write(stdout, `{"discipline":${JSON.stringify(discipline)},"status":${JSON.stringify(state)},"rows":[`);
      let first = true;
      for await (const page of templateRows(rt.db, filter)) {
        await write(stdout, (first ? '' : ',') + page.map((r) => JSON.stringify(r)).join(','));
        first = false;
      }
      await write(stdout, ']}\n');
      return;
    }
    const target = opts.out ? openOutputStream(opts.out, { force: opts.force }) : stdout;
    let rows = -1;
    try {
      for await (const chunk of templateCsv(rt.db, filter)) {
        rows += chunk === '' ? 0 : chunk.split('\r\n').length - 1;
        await write(target, chunk);
      }
    } finally {
      if (target !== stdout) await new Promise((resolve) => (target as fs.WriteStream).end(resolve));
    }
    if (opts.out) {
      out(opts.json ? JSON.stringify({ file: opts.out, discipline, status: state, rows }) : `Wrote ${plural(rows, 'row')} (${discipline}, ${state}) to ${opts.out}.`);
    }
  });
}

async function profilesCommand(opts: { json?: boolean }): Promise<void> {
  await withRuntime(async (rt) => {
    const files = listProfiles(rt.config.dataDir);
    if (opts.json) {
      out(JSON.stringify(files.map(({ source, file, profile, problem }) => (profile ? { source, file, ...profile } : { source, file, problem }))));
      return;
    }
    if (files.length === 0) return out('There are no import profiles.');
    const width = Math.max(...files.map((p) => (p.profile?.name ?? '').length), 4);
    for (const p of files) {
      if (p.profile) out(`${p.profile.name.padEnd(width)}  ${p.source.padEnd(7)}  ${p.profile.description}`);
      else out(`${'?'.padEnd(width)}  ${p.source.padEnd(7)}  ${p.file} is not a valid profile: ${p.problem}`);
    }
  });
}

export function registerResults(command: Command): void {
  const results = command
    .addHelpText('after', '\nExample:\n  $ labctl results import results.csv --as microbiotester@demo.lab --dry-run');

  results
    .command('import')
    .description('import results from a CSV file or an instrument export, all or nothing, with the rules of the testing portals')
    .argument('<file.csv>', 'the CSV file, or the instrument file with --profile ("-" reads standard input)')
    .requiredOption('--as <email>', 'the active tester account entering the results (its discipline decides which tests it may enter)')
    .option('--dry-run', 'check every row and report what would change, without writing anything')
    .option('--json', 'print the outcome (or every problem) as JSON')
    .addHelpText(
      'after',
      `\nThe first line must be the header:\n  ${RESULTS_CSV_HEADER}\n` +
        'One row per sample and test: the control number, the sample\'s position (1, 2, ...), the test code\n' +
        '(e.g. eColi, betaLactams, dog), the value (free text), the remark (positive, negative or empty) and\n' +
        'the analysis date (YYYY-MM-DD or empty). Every problem is listed with its line; nothing is written\n' +
        'unless every row is right.\n' +
        '\nWith --profile, the file is an instrument\'s export (a plate reader\'s ODs, a PCR run\'s Cts) read as the\n' +
        'profile says; every row it cannot use is named with its line and column (docs/labctl.md lists the fields).\n' +
        '\nExamples:\n  $ labctl results import fixtures/results-example.csv --as microbiotester@demo.lab\n' +
        '  $ labctl results import results.csv --as chemtester@demo.lab --dry-run --json\n' +
        '  $ labctl results import fixtures/instruments/elisa-aoz-plate.csv --profile elisa-plate-reader --as chemtester@demo.lab --dry-run',
    )
    .option('--profile <name>', 'read the file as this instrument profile says (labctl results profiles lists them)')
    .option('--partial', 'save the rows that are right and leave out (and list) the others')
    .action(importCommand);

  results
    .command('template')
    .description('the analyses awaiting results, as an import file with the value columns empty')
    .requiredOption('--discipline <discipline>', `whose analyses: ${DISCIPLINES.join(', ')}`)
    .option('--status <state>', `outstanding (no complete result yet, the default), finished or all`)
    .option('--request <request>', 'only this request (an id or a control number)')
    .option('--out <file>', 'write the CSV to this file instead of stdout (an existing file needs --force)')
    .option('--force', FORCE_HELP)
    .option('--json', 'print the rows as JSON (with --out: write the CSV and print a JSON summary)')
    .addHelpText(
      'after',
      '\nFill in value, remark and analysis_date, then import the file with labctl results import.\n' +
        '\nExamples:\n  $ labctl results template --discipline microbio --out today.csv\n' +
        '  $ labctl results template --discipline chem --request 2026-0005\n' +
        '  $ labctl results template --discipline molbio --status all --json | jq \'.rows | length\'',
    )
    .action(templateCommand);

  results
    .command('profiles')
    .description('list the instrument import profiles (shipped and in DATA_DIR/profiles)')
    .option('--json', 'print every profile with all its fields as JSON')
    .action(profilesCommand);
}
