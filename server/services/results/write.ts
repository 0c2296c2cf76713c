// Writing results: one service for the tester screens (PUT .../{sampleId}) and bulk CSV imports.
// Batched: the affected requests and analyses are loaded with whereIn, changes are written in
// chunks, statuses recomputed once per request, audit rows inserted together, all in the caller's
// transaction.
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { inShortWrite } from '../../db/transaction.js';
import { enteredResultRow, judgedOf, JUDGED_COLUMNS, type JudgedRow } from '../../db/analyses.js';
import { countChanges, countsOfRows } from '../../db/reportCounts.js';
import { progressAfterResults, resultProgressRows } from '../../db/requestProgress.js';
import { inChunks, lockForUpdate, runTogether, selectArrays, slices, updateJsonRows, type Statement } from '../../db/sql.js';
import { findAnalyte, type Group } from '../../domain/catalog.js';
import { can, type Actor } from '../../domain/policies.js';
import { acceptsResults, isAnalysisComplete, statusAfterResults, STATUS_DISPLAY, type RequestStatus } from '../../domain/requestStatus.js';
import { normalizeResult, parseResultFields, toWideResults, type AnalysisRecord, type Remark, type WideEntry, type WideResult } from '../../domain/resultShape.js';
import {
  applicableSpecification, decide, measurementFromRemark, measurementText, type Decision, type DecisionRule, type Measurement, type Specification,
} from '../../domain/specifications.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { describeIssues } from '../../validation.js';
import { auditInserts, type AuditEntry } from '../audit.js';
import { sampleScope, scopeOfRow, specificationsAndRule, today, type RequestScope, type SampleScope } from '../specifications.js';
import { analysesOf } from './read.js';

export interface ResultEntry {
  requestId: number;
  sampleId: number;
  testCode: string;
  /** Free text; empty (or only spaces) clears the result. */
  value: string | null;
  remark: '' | Remark | null;
  /** YYYY-MM-DD or null. */
  analysisDate: string | null;
  /** Names the entry in error messages (e.g. 'line 12'); default 'sample {sampleId}'. */
  label?: string;
  /** Issue 26: the measured value (absent: the stored one stays; null clears it). */
  measurement?: Measurement | null;
  /** The tester confirms a remark that differs from the decision's. */
  remarkConfirmed?: boolean;
}

export interface WriteResultsOptions {
  clock: Clock;
  actor: Actor;
  entries: readonly ResultEntry[];
  /** The entries' requests, locked already in this transaction (lockRequests); locked here when left out. */
  locked?: ReadonlyMap<number, LockedRequest>;
  ip?: string | null;
  /** The file an import read (its name and sha256), written into each audit entry. */
  source?: { file: string; sha256: string; profile?: string };
}

export interface WriteResultsOutcome {
  /** Analyses whose stored result changed. */
  changed: number;
  /** Every analysis of the written requests, as now stored (empty when nothing changed). */
  analyses: AnalysisRecord[];
  /** Requests this write moved to FOR_RELEASE. */
  requestsCompleted: number[];
  /** Requests this write moved back to FOR_TESTING. */
  requestsReopened: number[];
}

/** A request as a result write reads it, its row locked until the transaction ends. */
export interface LockedRequest {
  status: RequestStatus;
  controlNumber: string | null;
  scope: RequestScope;
}

const LOCKED_COLUMNS = ['r.id', 'r.status', 'r.control_number', 'r.sample_category', 'r.testing_purpose'];

function lockedRows(trx: Knex.Transaction, query: Knex.QueryBuilder): Promise<Map<number, LockedRequest>> {
  return lockForUpdate(trx, query.select(LOCKED_COLUMNS), 'r').then((rows: Array<Record<string, string | null>>) =>
    new Map(rows.map((r) => [Number(r.id), { status: r.status as RequestStatus, controlNumber: r.control_number, scope: scopeOfRow(r) }])),
  );
}

/**
 * Locks the requests of `requestIds` (in id order) so concurrent writers of one request see each
 * other's analyses when they decide its status; SQLite serialises writers anyway.
 */
async function lockRequests(trx: Knex.Transaction, requestIds: readonly number[]): Promise<Map<number, LockedRequest>> {
  const requests = new Map<number, LockedRequest>();
  await inChunks(requestIds, async (ids) => {
    for (const [id, r] of await lockedRows(trx, trx('requests as r').whereIn('r.id', ids).orderBy('r.id'))) requests.set(id, r);
  });
  return requests;
}

/** Locks the request of the sample `sampleId` (one statement finds and locks it); empty when there is no such sample. */
function lockRequestOfSample(trx: Knex.Transaction, sampleId: number): Promise<Map<number, LockedRequest>> {
  return lockedRows(trx, trx('requests as r').join('samples as s', 's.request_id', 'r.id').where('s.id', sampleId));
}

type Stored = Pick<AnalysisRecord, 'value' | 'remark' | 'analysisDate'> & { measurement: Measurement | null; decision: Decision | null };
/**
 * An analysis as a write reads it: the record the screens answer with, the month it reports in (for
 * the report counters) and when it was entered (for the progress rows).
 */
type Written = AnalysisRecord & { reportMonth: string | null; enteredAt: string | null };

// The analyses exist (approval planned them): a write sets their result columns, found by their key.
const ANALYSIS_KEY = { sample_id: 'integer', test_code: 'text' } as const;
const ENTERED_RESULT_COLUMNS = {
  value: 'text', remark: 'text', analysis_date: 'text', report_month: 'text', entered_by: 'integer', entered_at: 'text',
  measured_value: 'double precision', measured_unit: 'text', uncertainty: 'double precision', coverage_k: 'double precision', qualifier: 'text',
  decision_outcome: 'text', decision_reason: 'text', specification_id: 'integer', specification_version: 'integer', decision_rule: 'text', expected_remark: 'text',
} as const satisfies Record<string, 'integer' | 'text' | 'double precision'>;

const nothingChanged = (): WriteResultsOutcome => ({ changed: 0, analyses: [], requestsCompleted: [], requestsReopened: [] });

const nameOf = (e: ResultEntry) => e.label ?? `sample ${e.sampleId}`;
const sameResult = (a: Stored, b: Stored) =>
  a.value === b.value && a.remark === b.remark && a.analysisDate === b.analysisDate &&
  JSON.stringify([a.measurement, a.decision]) === JSON.stringify([b.measurement, b.decision]);

/** A result as the audit trail records it: the SPEC's three fields, and a measurement and decision where there are. */
const audited = ({ measurement, decision, ...fields }: Stored) => ({ ...fields, ...(measurement ? { measurement } : {}), ...(decision ? { decision } : {}) });

interface Judging { specs: Specification[]; rule: DecisionRule; today: string }

/**
 * The result an entry stores, judged (issue 26): the measurement (given, else the stored one while
 * the value stays), its text where the tester typed none, the decision against the specification in
 * force on the analysis date (today without one), and the + / − the decision gives where none was
 * chosen. Problems: a unit other than the specification's, a remark differing from the decision
 * without the tester's confirmation.
 */
function judge(e: ResultEntry, fields: ReturnType<typeof normalizeResult>, stored: Stored, scope: SampleScope, j: Judging): { result: Stored; problem?: string } {
  const given = e.measurement !== undefined;
  let measurement = given ? (e.measurement ?? null) : stored.measurement;
  // A measurement alone is a result: its text is written for it, with the remark and date sent.
  const derived = given && measurement !== null && (e.value ?? '').trim() === '';
  const entered = derived ? { value: '', remark: e.remark || null, analysisDate: e.analysisDate || null } : fields;
  const { analysisDate } = entered;
  let { value, remark } = entered;
  if (value === null) return { result: { value: null, remark: null, analysisDate: null, measurement: null, decision: null } };
  const spec = applicableSpecification(j.specs, { analyte: e.testCode, ...scope, on: analysisDate ?? j.today });
  if (measurement && spec?.unit && measurement.value != null) {
    if (measurement.unit == null) measurement = { ...measurement, unit: spec.unit };
    else if (measurement.unit !== spec.unit) {
      return { result: stored, problem: `${nameOf(e)}, ${e.testCode}: the unit ${measurement.unit} does not match the specification's ${spec.unit}` };
    }
  }
  if (derived) value = measurementText(measurement!);
  const judged = measurement ?? (spec?.kind === 'qualitative' && remark ? measurementFromRemark(remark) : null);
  const decision = spec && judged ? decide(spec, judged, j.rule) : null;
  if (given && measurement && decision) {
    if (remark === null) remark = decision.expectedRemark;
    else if (remark !== decision.expectedRemark && !e.remarkConfirmed) {
      return { result: stored, problem: `The remark differs from the decision: confirm it (${nameOf(e)}, ${e.testCode}: ${decision.reason}, remark ${remark})` };
    }
  }
  return { result: { value, remark, analysisDate, measurement, decision } };
}

function groupBy<T>(items: readonly T[], key: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

function fail(error: (message: string) => AppError, problems: string[]): never {
  throw error(problems.join('; '));
}

/**
 * Writes many results in `trx` with the rules of the tester screens: the actor must be the tester of
 * each analyte's discipline (403), the requests must be FOR_TESTING or FOR_RELEASE (404, 409), each
 * analyte must be a ticked test of that sample's request (400), values at most 500 characters,
 * remarks '', 'positive' or 'negative', dates YYYY-MM-DD or null. Every problem of a kind is listed
 * in one AppError. Requests move between FOR_TESTING and FOR_RELEASE by completeness of ALL their
 * analyses; each changed request gets one audit entry with the before and after of its changes.
 */
export async function writeResults(trx: Knex.Transaction, options: WriteResultsOptions): Promise<WriteResultsOutcome> {
  const { clock, actor, entries } = options;

  // Shape of each entry and the writer's discipline, before touching the database.
  const invalid: string[] = [];
  const notMine = new Set<string>();
  // Each entry's result as it will be stored, checked once here.
  const resultOf = new Map<ResultEntry, ReturnType<typeof normalizeResult>>();
  for (const e of entries) {
    const analyte = findAnalyte(e.testCode);
    if (!analyte) {
      invalid.push(`${nameOf(e)}: ${e.testCode} is not a test`);
      continue;
    }
    if (!can(actor, 'results:write', { group: analyte.group })) notMine.add(e.testCode);
    const parsed = parseResultFields(e);
    if (parsed.success) resultOf.set(e, normalizeResult(parsed.data));
    else invalid.push(`${nameOf(e)}, ${e.testCode}: ${describeIssues(parsed.error)}`);
  }
  if (notMine.size) fail(forbidden, [`You may not enter results of ${[...notMine].join(', ')}`]);
  if (invalid.length) fail(badRequest, invalid);
  if (entries.length === 0) return nothingChanged();

  const requestIds = [...new Set(entries.map((e) => e.requestId))].sort((a, b) => a - b);
  const requests = options.locked ?? (await lockRequests(trx, requestIds));
  const missing = requestIds.filter((id) => !requests.has(id));
  if (missing.length) fail(notFound, [`No request with id ${missing.join(', ')}`]);
  const closed = requestIds.filter((id) => !acceptsResults(requests.get(id)!.status));
  if (closed.length) {
    fail(conflict, closed.map((id) => {
      const r = requests.get(id)!;
      return `Results of request ${r.controlNumber ?? id} can no longer be changed: it is ${STATUS_DISPLAY[r.status]}`;
    }));
  }

  // Each sample's species of origin narrows the specifications of its analyses (issue 26).
  const speciesOf = new Map<number, string | null>();
  const analyses = await analysesToWrite(trx, requestIds, speciesOf);
  const judging: Judging = { ...(await specificationsAndRule(trx, [...new Set(entries.map((e) => e.testCode))])), today: today(clock) };
  // By sample, then test: the unique key of an analysis.
  const bySample = new Map<number, Map<string, Written>>();
  for (const a of analyses) {
    const tests = bySample.get(a.sampleId);
    if (tests) tests.set(a.testCode, a);
    else bySample.set(a.sampleId, new Map([[a.testCode, a]]));
  }
  const problems: string[] = [];
  const seen = new Set<Written>();
  const now = clock.now().toISOString();
  const changes: Array<{ analysis: Written; before: Stored; after: Stored }> = [];
  for (const e of entries) {
    const analysis = bySample.get(e.sampleId)?.get(e.testCode);
    if (!analysis || analysis.requestId !== e.requestId) {
      problems.push(`${nameOf(e)}: ${e.testCode} is not a test requested for sample ${e.sampleId} of request ${requests.get(e.requestId)?.controlNumber ?? e.requestId}`);
      continue;
    }
    if (seen.has(analysis)) {
      problems.push(`${nameOf(e)}: ${e.testCode} of sample ${e.sampleId} is given more than once`);
      continue;
    }
    seen.add(analysis);
    const before: Stored = {
      value: analysis.value, remark: analysis.remark, analysisDate: analysis.analysisDate, measurement: analysis.measurement ?? null, decision: analysis.decision ?? null,
    };
    const scope = sampleScope(requests.get(e.requestId)!.scope, speciesOf.get(e.sampleId));
    const { result: after, problem } = judge(e, resultOf.get(e)!, before, scope, judging);
    if (problem) problems.push(problem);
    else if (!sameResult(before, after)) changes.push({ analysis, before, after });
  }
  if (problems.length) fail(badRequest, problems);
  if (changes.length === 0) return nothingChanged();

  const rows = changes.map(({ analysis: a, after }) => enteredResultRow(a.sampleId, a.testCode, { ...after, enteredBy: actor.id, enteredAt: now }));
  // The report counters move by what this write changes (the requests are open, so they count):
  // the changed analyses as stored before, and as written.
  const countedBefore = countsOfRows(changes.map(({ analysis: a }) => ({ report_month: a.reportMonth, test_code: a.testCode, remark: a.remark })));
  // On its own: its text repeats, so PostgreSQL keeps its plan (runTogether says why).
  await updateJsonRows(trx, 'analyses', ANALYSIS_KEY, ENTERED_RESULT_COLUMNS, rows);
  // Every write from here depends only on what was read above: they go as one statement (runTogether).
  const writes: Statement[] = countChanges(trx, countedBefore, countsOfRows(rows));
  const changesByRequest = groupBy(changes, (c) => c.analysis.requestId);
  const analysesByRequest = groupBy(analyses, (a) => a.requestId);
  // The queues' progress rows as they stood, before the analyses below take what was written.
  const progressBefore = resultProgressRows(
    [...changesByRequest.keys()].map((id) => ({ id, status: requests.get(id)!.status, analyses: analysesByRequest.get(id) ?? [] })),
  );
  changes.forEach((c, i) => Object.assign(c.analysis, c.after, { reportMonth: rows[i].report_month, enteredAt: rows[i].entered_at }));

  // New statuses from the completeness of every analysis of each changed request.
  const moved = new Map<RequestStatus, number[]>();
  const audit: AuditEntry[] = [];
  const progress: Array<{ id: number; status: RequestStatus; analyses: Written[] }> = [];
  for (const [requestId, requestChanges] of changesByRequest) {
    const from = requests.get(requestId)!.status;
    const requestAnalyses = analysesByRequest.get(requestId) ?? [];
    const to = statusAfterResults(from, requestAnalyses.every(isAnalysisComplete));
    progress.push({ id: requestId, status: to, analyses: requestAnalyses });
    if (to !== from) {
      const ids = moved.get(to);
      if (ids) ids.push(requestId);
      else moved.set(to, [requestId]);
    }
    audit.push({
      actorUserId: actor.id,
      action: 'results.write',
      requestId,
      ip: options.ip ?? null,
      details: {
        ...(to !== from ? { status: { before: from, after: to } } : {}),
        ...(options.source ? { source: options.source } : {}),
        results: requestChanges.map((c) => ({ sampleId: c.analysis.sampleId, testCode: c.analysis.testCode, before: audited(c.before), after: audited(c.after) })),
      },
    });
  }
  for (const [status, ids] of moved) {
    writes.push(...slices(ids).map((chunk) => trx('requests').whereIn('id', chunk).update({ status, updated_at: now })));
  }
  await runTogether(trx, [...writes, ...progressAfterResults(trx, progress, progressBefore), ...auditInserts(trx, clock, audit)]);
  return {
    changed: changes.length,
    analyses,
    requestsCompleted: moved.get('FOR_RELEASE') ?? [],
    requestsReopened: moved.get('FOR_TESTING') ?? [],
  };
}

/** Every analysis of the given requests, as writeResults needs them (one query per CHUNK_SIZE requests). */
/** The analyses of `requestIds`, with each sample's species of origin put into `speciesOf` (by sample id). */
async function analysesToWrite(trx: Knex.Transaction, requestIds: readonly number[], speciesOf: Map<number, string | null>): Promise<Written[]> {
  const columns = ['request_id', 'sample_id', 'position', 'test_code', 'result_group', 'value', 'remark', 'analysis_date', 'report_month', 'entered_at', 'species', ...JUDGED_COLUMNS];
  const selected = columns.map((c) => (c === 'position' || c === 'species' ? `s.${c}` : `a.${c}`));
  return inChunks(requestIds, async (ids) => {
    const query = trx('analyses as a').join('samples as s', 's.id', 'a.sample_id').whereIn('a.request_id', ids).select(selected);
    const rows = (await selectArrays(trx, query, columns)) as Array<
      [number, number, number, string, Group, string | null, Remark | null, string | null, string | null, string | null, string | null, ...unknown[]]
    >;
    return rows.map(([requestId, sampleId, position, testCode, group, value, remark, analysisDate, reportMonth, enteredAt, species, ...judged]) => {
      speciesOf.set(Number(sampleId), species);
      return {
        requestId: Number(requestId), sampleId: Number(sampleId), samplePosition: Number(position), testCode, group, value, remark, analysisDate, reportMonth, enteredAt,
        ...judgedOf(Object.fromEntries(JUDGED_COLUMNS.map((c, i) => [c, judged[i]])) as Partial<JudgedRow>),
      };
    });
  });
}

export interface SampleResultsInput {
  group: Group;
  sampleId: number;
  entries: readonly WideEntry[];
}

/**
 * PUT /microbioTestResults/{sampleId} and its siblings: writes the results of one sample's analyses of
 * `group` in one transaction (the rules of writeResults) and answers the sample's item of the group's
 * list as it now stands. 403 unless the actor tests `group`; 404 for a sample that does not exist.
 */
export async function writeSampleResults(
  deps: { db: Knex; clock: Clock },
  actor: Actor,
  input: SampleResultsInput,
  meta: { ip?: string | null } = {},
): Promise<WideResult> {
  const { group, sampleId } = input;
  if (!can(actor, 'results:write', { group })) throw forbidden();
  return inShortWrite(deps.db, async (trx) => {
    const locked = await lockRequestOfSample(trx, sampleId);
    const [requestId] = locked.keys();
    if (requestId === undefined) throw notFound(`No sample with id ${sampleId}.`);
    const outcome = await writeResults(trx, { clock: deps.clock, actor, ip: meta.ip, locked, entries: input.entries.map((e) => ({ ...e, requestId, sampleId })) });
    // What was just written is what is stored: only an unchanged sample is read back.
    const analyses = outcome.changed ? outcome.analyses : await analysesOf(trx, [requestId]);
    const [item] = toWideResults(group, analyses.filter((a) => a.sampleId === sampleId));
    return item ?? { sampleId, result: { requestId } };
  });
}
