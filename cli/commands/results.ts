import fs from 'node:fs';
import type { Command } from 'commander';
import { GROUPS } from '../../server/domain/catalog.js';
import { can } from '../../server/domain/policies.js';
import { RESULTS_CSV_HEADER } from '../../server/domain/resultsCsv.js';
import { refreshStatistics } from '../../server/db/statistics.js';
import { importResults, type ImportOutcome, type ImportResult } from '../../server/services/results/import.js';
import { actingAccount } from '../actor.js';
import { io } from '../io.js';
import { groupedProblemLines } from '../problemReport.js';
import { AbortError, info, out, withRuntime } from '../runtime.js';
import { formatCount } from '../table.js';
import { startProgress } from '../terminal.js';

interface ImportOptions {
  as?: string;
  dryRun?: boolean;
  json?: boolean;
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
  return lines.join('\n');
}

async function importCommand(file: string, opts: ImportOptions): Promise<void> {
  const csv = await readInput(file);
  await withRuntime(async (rt) => {
    const actor = await actingAccount(
      rt.db,
      opts.as,
      (a) => GROUPS.some((group) => can(a, 'results:write', { group })),
      'only tester accounts (chemtester, microbiotester, molbiotester) enter results',
    );
    const progress = await startProgress(opts.dryRun ? 'Checking results' : 'Importing results', 0, 'rows', { json: opts.json });
    let result: ImportResult;
    try {
      result = await importResults(rt, actor, { csv, dryRun: opts.dryRun, onProgress: (rows, total) => progress.update(rows, total) });
    } finally {
      await progress.finish();
    }
    if (result.imported && !result.outcome.dryRun) await refreshStatistics(rt.db);
    if (!opts.json) groupedProblemLines(result.warnings, 'warning: ').forEach(info);
    if (!result.imported) {
      groupedProblemLines(result.problems).forEach(info);
      const lines = new Set(result.problems.map((p) => p.line)).size;
      if (opts.json) out(JSON.stringify({ imported: false, rows: result.rows, problems: result.problems, warnings: result.warnings }));
      throw new AbortError(`${plural(result.problems.length, 'problem')} on ${plural(lines, 'line')} of ${file}; nothing was imported.`);
    }
    const { outcome } = result;
    out(opts.json ? JSON.stringify({ imported: !outcome.dryRun, ...outcome, warnings: result.warnings }) : importSummary(outcome));
  });
}

export function registerResults(command: Command): void {
  const results = command
    .addHelpText('after', '\nExample:\n  $ labctl results import results.csv --as microbiotester@demo.lab --dry-run');

  results
    .command('import')
    .description('import results from a CSV file, all or nothing, with the rules of the testing portals')
    .argument('<file.csv>', 'the CSV file ("-" reads standard input)')
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
        '\nExamples:\n  $ labctl results import fixtures/results-example.csv --as microbiotester@demo.lab\n' +
        '  $ labctl results import results.csv --as chemtester@demo.lab --dry-run --json',
    )
    .action(importCommand);
}
