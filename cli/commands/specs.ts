// `labctl specs export` and `labctl specs import` (issue 26): the specifications as CSV; an import is
// checked line by line and written all or nothing (server/services/specificationsCsv.ts).
import fs from 'node:fs';
import type { Command } from 'commander';
import { can } from '../../server/domain/policies.js';
import { SPEC_CSV_COLUMNS } from '../../server/domain/specificationsCsv.js';
import { exportSpecifications, importSpecifications } from '../../server/services/specificationsCsv.js';
import { actingAccount } from '../actor.js';
import { FORCE_HELP, writeOutputFile } from '../outputFile.js';
import { AbortError, info, out, withRuntime } from '../runtime.js';

interface ExportOptions { out?: string; force?: boolean; json?: boolean }
interface ImportOptions { as?: string; dryRun?: boolean; json?: boolean }

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

async function exportCommand(opts: ExportOptions): Promise<void> {
  await withRuntime(async (rt) => {
    const { csv, specifications } = await exportSpecifications(rt.db);
    if (opts.out) {
      await writeOutputFile(opts.out, csv, { force: opts.force });
      if (opts.json) out(JSON.stringify({ file: opts.out, specifications: specifications.length }));
      else info(`Wrote ${plural(specifications.length, 'specification')} to ${opts.out}.`);
    } else if (opts.json) out(JSON.stringify({ items: specifications }));
    else out(csv.replace(/\r\n$/, ''));
  });
}

function readFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new AbortError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
}

async function importCommand(file: string, opts: ImportOptions): Promise<void> {
  const text = readFile(file);
  await withRuntime(async (rt) => {
    const actor = await actingAccount(rt.db, opts.as, (a) => can(a, 'specs:manage'), 'only staff and admin accounts manage specifications');
    const result = await importSpecifications(rt, actor, text, { dryRun: opts.dryRun, fileName: file });
    if (!result.imported) {
      if (opts.json) out(JSON.stringify(result));
      for (const p of result.problems) info(`line ${p.line}: ${p.message}`);
      throw new AbortError(`${plural(result.problems.length, 'problem')} in ${file}; nothing was imported.`);
    }
    if (opts.json) {
      out(JSON.stringify(result));
      return;
    }
    for (const a of result.added) out(`line ${a.line}: ${a.analyte} version ${a.version}${result.dryRun ? ' would be added' : ' added'}`);
    out(`${result.dryRun ? 'Dry run: ' : ''}${plural(result.added.length, 'new specification')}${result.dryRun ? ' would be added' : ' added'}; ${result.unchanged} unchanged.${result.dryRun ? ' Nothing was written.' : ''}`);
  });
}

export function registerSpecs(command: Command): void {
  command.addHelpText('after', '\nExamples:\n  $ labctl specs export --out specs.csv\n  $ labctl specs import specs.csv --as staff@demo.lab --dry-run');

  command
    .command('export')
    .description('write every specification version as CSV (stdout, or --out)')
    .option('--out <file>', 'write the CSV to this file instead of stdout (an existing file needs --force)')
    .option('--force', FORCE_HELP)
    .option('--json', 'print the specifications as JSON (with --out: write the CSV and print a JSON summary)')
    .action(exportCommand);

  command
    .command('import')
    .description('add the new specifications of a CSV file, all or nothing: every problem is listed with its line')
    .argument('<file.csv>', 'a file in the layout of labctl specs export')
    .requiredOption('--as <email>', 'the active staff or admin account adding them')
    .option('--dry-run', 'check every row and say what would be added, without writing anything')
    .option('--json', 'print the outcome (or every problem) as JSON')
    .addHelpText(
      'after',
      `\nColumns: ${SPEC_CSV_COLUMNS.join(',')}\n` +
        'A row with an id repeats a stored version and must match it (versions are never changed). A row\n' +
        'without id is a new specification; to replace one, give supersedes=<its id>. Dates overlapping another\n' +
        'version of the same analyte and scope, a limit below the LOQ, and a version that would judge a released\n' +
        'result differently are refused.',
    )
    .action(importCommand);
}
