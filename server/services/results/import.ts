// The use case behind `labctl results import`: check a whole results CSV against the database, then
// write it all in one transaction with the results service the tester screens use (same rules, audit
// and FOR_TESTING -> FOR_RELEASE moves), or nothing at all.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import type { StatisticsOf } from '../../db/statistics.js';
import { inTransaction } from '../../db/transaction.js';
import { GROUPS } from '../../domain/catalog.js';
import { can, type Actor } from '../../domain/policies.js';
import { decodeInstrumentFile, parseInstrumentFile, type InstrumentProfile } from '../../domain/instrumentProfile.js';
import {
  decodeResultsCsv,
  parseResultsCsv,
  resolveResultRows,
  sortProblems,
  type CsvProblem,
  type ResolvedResult,
} from '../../domain/resultsCsv.js';
import { forbidden } from '../../errors.js';
import { LOOKUP_CHUNK, loadImportTargets } from './importTargets.js';
import { writeResults, type WriteResultsOptions, type WriteResultsOutcome } from './write.js';

/**
 * What an import writes, whose statistics it refreshes: of the requests only their status (with its
 * time); their other columns' statistics hold, and were most of the time of analyzing them all.
 */
export const STATISTICS_AN_IMPORT_CHANGES: readonly StatisticsOf[] = [
  'analyses', { table: 'requests', columns: ['status', 'updated_at'] }, 'request_progress', 'report_counts', 'audit_log', 'audit_counts',
];

/** Rows per call of the results service: small enough for a smooth progress bar. */
const WRITE_CHUNK = 10_000;

export interface ImportDeps {
  db: Knex;
  clock: Clock;
}

export interface ImportInput {
  /** The file as read: its bytes, decoded and checked here. */
  csv: Uint8Array;
  /** The file's name, audited with its sha256 on every request the import changes. */
  fileName?: string;
  /** Read the file as this instrument profile says instead of as the results CSV layout. */
  profile?: InstrumentProfile;
  /** Check and count everything, then roll back. */
  dryRun?: boolean;
  /** Save the rows that are right and leave out (and list) those that are not. */
  partial?: boolean;
  /** Called after each written chunk with the rows written so far and the total. */
  onProgress?: (rows: number, total: number) => void;
}

export interface ImportOutcome {
  dryRun: boolean;
  rows: number;
  requests: number;
  /** Analyses whose stored result changed (a row equal to what is stored changes nothing). */
  changed: number;
  /** Requests of the file that are complete after the import (FOR RELEASE). */
  requestsComplete: number;
  /** Control numbers of the requests this import moved to FOR RELEASE. */
  movedToForRelease: string[];
  /** Control numbers of requests that went back to FOR TESTING (a result was emptied). */
  movedToForTesting: string[];
  /** Rows left out as blanks, standards or controls (profile imports). */
  skipped?: number;
  /** With partial: the rows left out for their problems (listed with the outcome). */
  leftOut?: CsvProblem[];
  /** On a dry run: what would be saved, row by row. */
  saved?: SavedRow[];
}

/** The outcome, or every problem; either way the warnings (rows imported, but worth a look). */
export type ImportResult =
  | { imported: true; outcome: ImportOutcome; warnings: CsvProblem[] }
  | { imported: false; rows: number; problems: CsvProblem[]; warnings: CsvProblem[]; skipped?: number; saved?: SavedRow[] };

/** A row as an import saves it (dry runs list them). */
export type SavedRow = Omit<ResolvedResult, 'requestId' | 'sampleId' | 'group'>;
const savedRow = ({ line, controlNumber, samplePosition, testCode, value, remark, analysisDate }: ResolvedResult): SavedRow => ({
  line, controlNumber, samplePosition, testCode, value, remark, analysisDate,
});

class DryRunRollback extends Error {
  constructor(readonly outcome: ImportOutcome, readonly warnings: CsvProblem[]) {
    super('dry run');
  }
}

/**
 * Imports a results CSV as `actor`, a tester: every problem of the file with its line, and nothing
 * written, or every row written in one transaction. With `dryRun` everything is written and then
 * rolled back, so the outcome is exact.
 */
export async function importResults(deps: ImportDeps, actor: Actor, input: ImportInput): Promise<ImportResult> {
  if (!GROUPS.some((group) => can(actor, 'results:write', { group }))) {
    throw forbidden('Only tester accounts (chemtester, microbiotester, molbiotester) enter results.');
  }
  const { profile } = input;
  const decoded = profile ? decodeInstrumentFile(profile, input.csv) : decodeResultsCsv(input.csv);
  if ('problem' in decoded) return { imported: false, rows: 0, problems: [decoded.problem], warnings: [] };
  const parsed = profile ? parseInstrumentFile(profile, decoded.text) : { ...parseResultsCsv(decoded.text), skipped: 0 };
  const source = input.fileName === undefined
    ? undefined
    : { file: input.fileName, sha256: createHash('sha256').update(input.csv).digest('hex'), ...(profile ? { profile: profile.name } : {}) };
  const today = deps.clock.now().toISOString().slice(0, 10);
  try {
    return await inTransaction(deps.db, async (trx) => {
      const targets = await loadImportTargets(trx, parsed.rows.map((r) => r.controlNumber));
      const resolved = resolveResultRows(parsed.rows, targets, actor, { today });
      const problems = sortProblems([...parsed.problems, ...resolved.problems]);
      const warnings = sortProblems([...parsed.warnings, ...resolved.warnings]);
      if (problems.length && !(input.partial && resolved.entries.length)) {
        return {
          imported: false as const, rows: parsed.dataRows, problems, warnings,
          ...(profile ? { skipped: parsed.skipped } : {}),
          // A dry run shows the rows that are right too: what --partial would save.
          ...(input.dryRun ? { saved: resolved.entries.map(savedRow) } : {}),
        };
      }
      const outcome = await writeEntries(trx, deps.clock, actor, resolved.entries, { ...input, source });
      if (profile) outcome.skipped = parsed.skipped;
      if (input.partial) outcome.leftOut = problems;
      if (input.dryRun) outcome.saved = resolved.entries.map(savedRow);
      if (input.dryRun) throw new DryRunRollback(outcome, warnings);
      return { imported: true as const, outcome, warnings };
    });
  } catch (err) {
    if (err instanceof DryRunRollback) return { imported: true, outcome: err.outcome, warnings: err.warnings };
    throw err;
  }
}

/**
 * `writing`'s outcome; when it fails, `next` (writing in the same transaction) is let finish first, so
 * nothing is still writing while the transaction rolls back.
 */
async function settledBefore<T>(writing: Promise<T>, next?: Promise<unknown>): Promise<T> {
  try {
    return await writing;
  } catch (err) {
    await next?.catch(() => undefined);
    throw err;
  }
}

/** Writes checked rows, a request's rows always in the same call of the results service. */
async function writeEntries(
  trx: Knex.Transaction,
  clock: Clock,
  actor: Actor,
  entries: readonly ResolvedResult[],
  { dryRun = false, onProgress, source }: ImportInput & { source?: WriteResultsOptions['source'] },
): Promise<ImportOutcome> {
  const byRequest = new Map<number, ResolvedResult[]>();
  for (const e of entries) {
    const rows = byRequest.get(e.requestId);
    if (rows) rows.push(e);
    else byRequest.set(e.requestId, [e]);
  }
  const controlNumberOf = new Map(entries.map((e) => [e.requestId, e.controlNumber]));

  const chunks: ResolvedResult[][] = [[]];
  for (const rows of byRequest.values()) {
    if (chunks[chunks.length - 1].length >= WRITE_CHUNK) chunks.push([]);
    chunks[chunks.length - 1].push(...rows);
  }
  const writeChunk = (chunk: readonly ResolvedResult[]) =>
    writeResults(trx, {
      clock,
      actor,
      source,
      entries: chunk.map((e) => ({
        requestId: e.requestId, sampleId: e.sampleId, testCode: e.testCode, value: e.value, remark: e.remark, analysisDate: e.analysisDate, label: `line ${e.line}`,
      })),
    });

  const moved = { forRelease: [] as number[], forTesting: [] as number[] };
  let changed = 0;
  let written = 0;
  // Two chunks at a time: while the database writes one, the next is read and checked (on PostgreSQL
  // the server's work and the database's overlap). They hold different requests, so their statements
  // may interleave in the transaction; their outcomes are taken in file order.
  let ahead: { chunk: readonly ResolvedResult[]; writing: Promise<WriteResultsOutcome> } | undefined;
  const finish = async (done: NonNullable<typeof ahead>, next?: Promise<unknown>) => {
    const outcome = await settledBefore(done.writing, next);
    changed += outcome.changed;
    moved.forRelease.push(...outcome.requestsCompleted);
    moved.forTesting.push(...outcome.requestsReopened);
    written += done.chunk.length;
    onProgress?.(written, entries.length);
    // A turn of the event loop between chunks: the synchronous SQLite driver would otherwise hold it
    // for the whole file (the transaction, and so all or nothing, stays one).
    await new Promise((resolve) => setImmediate(resolve));
  };
  for (const chunk of chunks.filter((c) => c.length > 0)) {
    const writing = writeChunk(chunk);
    // Handled here; awaited (and its failure thrown) in turn below.
    writing.catch(() => undefined);
    if (ahead) await finish(ahead, writing);
    ahead = { chunk, writing };
  }
  if (ahead) await finish(ahead);

  const ids = [...byRequest.keys()];
  let requestsComplete = 0;
  for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
    const [row] = await trx('requests').whereIn('id', ids.slice(i, i + LOOKUP_CHUNK)).where('status', 'FOR_RELEASE').count({ n: '*' });
    requestsComplete += Number(row.n);
  }
  return {
    dryRun,
    rows: entries.length,
    requests: byRequest.size,
    changed,
    requestsComplete,
    movedToForRelease: moved.forRelease.map((id) => controlNumberOf.get(id)!),
    movedToForTesting: moved.forTesting.map((id) => controlNumberOf.get(id)!),
  };
}
