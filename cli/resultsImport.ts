// The use case behind `labctl results import`: check a whole results CSV against the database, then
// write it all in one transaction with the results service the tester screens use (same rules, audit
// and FOR_TESTING -> FOR_RELEASE moves), or nothing at all.
import type { Knex } from 'knex';
import type { Clock } from '../server/clock.js';
import { inTransaction } from '../server/db/transaction.js';
import type { Actor } from '../server/domain/policies.js';
import type { RequestStatus } from '../server/domain/requestStatus.js';
import {
  parseResultsCsv,
  resolveResultRows,
  sortProblems,
  type CsvProblem,
  type ImportTarget,
  type ResolvedResult,
} from '../server/domain/resultsCsv.js';
import { writeResults } from '../server/services/results/write.js';

const LOOKUP_CHUNK = 500;
/** Rows per call of the results service: small enough for a smooth progress bar. */
const WRITE_CHUNK = 2000;

/** The requests named by `controlNumbers`, with their tests and samples: three queries per 500. */
export async function loadImportTargets(db: Knex | Knex.Transaction, controlNumbers: readonly string[]): Promise<Map<string, ImportTarget>> {
  const targets = new Map<string, ImportTarget>();
  const unique = [...new Set(controlNumbers)];
  for (let i = 0; i < unique.length; i += LOOKUP_CHUNK) {
    const requests = await db('requests').whereIn('control_number', unique.slice(i, i + LOOKUP_CHUNK)).select('id', 'control_number', 'status');
    if (requests.length === 0) continue;
    const byId = new Map<number, { requestId: number; controlNumber: string; status: RequestStatus; tests: string[]; sampleIds: Map<number, number> }>();
    for (const r of requests) {
      const target = { requestId: Number(r.id), controlNumber: r.control_number, status: r.status, tests: [], sampleIds: new Map() };
      byId.set(target.requestId, target);
      targets.set(target.controlNumber, target);
    }
    const ids = [...byId.keys()];
    for (const t of await db('request_tests').whereIn('request_id', ids).select('request_id', 'test_code')) byId.get(Number(t.request_id))!.tests.push(t.test_code);
    for (const s of await db('samples').whereIn('request_id', ids).select('id', 'request_id', 'position')) {
      byId.get(Number(s.request_id))!.sampleIds.set(Number(s.position), Number(s.id));
    }
  }
  return targets;
}

export type ImportCheck = { ok: true; entries: ResolvedResult[]; rows: number } | { ok: false; problems: CsvProblem[]; rows: number };

/** Every problem of the file, with line numbers, or the rows ready to write. Reads only. */
export async function checkResultsCsv(db: Knex, text: string, actor: Actor): Promise<ImportCheck> {
  const parsed = parseResultsCsv(text);
  const targets = await loadImportTargets(db, parsed.rows.map((r) => r.controlNumber));
  const resolved = resolveResultRows(parsed.rows, targets, actor);
  const problems = sortProblems([...parsed.problems, ...resolved.problems]);
  const rows = parsed.dataRows;
  return problems.length ? { ok: false, problems, rows } : { ok: true, entries: resolved.entries, rows };
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
}

class DryRunRollback extends Error {
  constructor(readonly outcome: ImportOutcome) {
    super('dry run');
  }
}

/**
 * Writes checked rows in one transaction, a request's rows always in the same call of the results
 * service. With `dryRun` everything is written and then rolled back, so the outcome is exact.
 */
export async function writeImport(
  db: Knex,
  clock: Clock,
  actor: Actor,
  entries: readonly ResolvedResult[],
  { dryRun = false, onProgress }: { dryRun?: boolean; onProgress?: (rows: number) => void } = {},
): Promise<ImportOutcome> {
  const byRequest = new Map<number, ResolvedResult[]>();
  for (const e of entries) {
    const rows = byRequest.get(e.requestId);
    if (rows) rows.push(e);
    else byRequest.set(e.requestId, [e]);
  }
  const controlNumberOf = new Map(entries.map((e) => [e.requestId, e.controlNumber]));

  try {
    return await inTransaction(db, async (trx) => {
      const moved = { forRelease: [] as number[], forTesting: [] as number[] };
      let changed = 0;
      let written = 0;
      let batch: ResolvedResult[] = [];
      const flush = async () => {
        const outcome = await writeResults(trx, {
          clock,
          actor,
          entries: batch.map((e) => ({
            requestId: e.requestId, sampleId: e.sampleId, testCode: e.testCode, value: e.value, remark: e.remark, analysisDate: e.analysisDate, label: `line ${e.line}`,
          })),
        });
        changed += outcome.changed;
        moved.forRelease.push(...outcome.requestsCompleted);
        moved.forTesting.push(...outcome.requestsReopened);
        written += batch.length;
        batch = [];
        onProgress?.(written);
      };
      for (const rows of byRequest.values()) {
        batch.push(...rows);
        if (batch.length >= WRITE_CHUNK) await flush();
      }
      if (batch.length) await flush();

      const ids = [...byRequest.keys()];
      let requestsComplete = 0;
      for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
        const [row] = await trx('requests').whereIn('id', ids.slice(i, i + LOOKUP_CHUNK)).where('status', 'FOR_RELEASE').count({ n: '*' });
        requestsComplete += Number(row.n);
      }
      const outcome: ImportOutcome = {
        dryRun,
        rows: entries.length,
        requests: byRequest.size,
        changed,
        requestsComplete,
        movedToForRelease: moved.forRelease.map((id) => controlNumberOf.get(id)!),
        movedToForTesting: moved.forTesting.map((id) => controlNumberOf.get(id)!),
      };
      if (dryRun) throw new DryRunRollback(outcome);
      return outcome;
    });
  } catch (err) {
    if (err instanceof DryRunRollback) return err.outcome;
    throw err;
  }
}
