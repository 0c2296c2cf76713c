// Per-request progress of the work queues (table request_progress, migration 013): for every request,
// one row per scope it has tests in ('all', each discipline, each chemistry group) with its status,
// sort keys and how many of the scope's analyses there are, are complete and are positive, when one
// was last entered, and the worst decision against a specification among them (migration 022). The queues read a page straight from its (scope, status, finished, sort key)
// indexes instead of counting analyses per request (correlated subqueries that cost PostgreSQL up to
// seconds at 50,000 requests), and the turnaround dashboard counts the open requests of each
// discipline on them (a request in review has its rows since migration 015). The submission and the
// approval write a request's rows from what they just wrote (progressInserts, progressReplacing), a result
// write sets their numbers from the analyses it holds (progressAfterResults); every other
// writer that changes a request's analyses, status or due date calls refreshProgress in its own
// transaction, so the rows are exact at every commit: they are computed from the analyses, never
// adjusted by deltas.
import type { Knex } from 'knex';
import { DISCIPLINE_GROUPS, disciplineOfGroup, findAnalyte, type Group } from '../domain/catalog.js';
import { isAnalysisComplete } from '../domain/requestStatus.js';
import type { Outcome } from '../domain/specifications.js';
import { worstRank } from './conformity.js';
import type { Discipline } from '../domain/roles.js';
import { inChunks, insertJsonRows, jsonRowsInserts, jsonRowsUpdates, jsonRowsUpserts, selectArrays, type Statement } from './sql.js';

type Db = Knex | Knex.Transaction;

/** 'all', a discipline, or a result group (microbio and molBio share their discipline's scope). */
export type ProgressScope = 'all' | Discipline | 'chemMicrobial' | 'chemElisa';

/** A due date that is missing sorts last. */
export const NO_DUE_DATE = '9999-12-31';

export const scopeOfDiscipline = (discipline: Discipline | undefined): ProgressScope => discipline ?? 'all';

/** The scope holding exactly the analyses of `group`. */
export function scopeOfGroup(group: Group): ProgressScope {
  return group === 'chemMicrobial' || group === 'chemElisa' ? group : disciplineOfGroup(group);
}

const groupsOfScope = (scope: ProgressScope): readonly Group[] | undefined =>
  scope === 'all' ? undefined : scope === 'chemMicrobial' || scope === 'chemElisa' ? [scope] : DISCIPLINE_GROUPS[scope];

export const PROGRESS_COLUMNS = {
  request_id: 'integer', scope: 'text', status: 'text', finished: 'integer', submission_date: 'text', due_key: 'text',
  total: 'integer', complete: 'integer', positives: 'integer', last_entered_at: 'text', conformity_rank: 'integer',
} as const;

type ProgressColumns = Partial<typeof PROGRESS_COLUMNS>;

/** The columns before migration 022 added conformity_rank: what 013 and 015 write. */
export const PROGRESS_COLUMNS_BEFORE_022: ProgressColumns = Object.fromEntries(Object.entries(PROGRESS_COLUMNS).filter(([c]) => c !== 'conformity_rank'));

interface ProgressRow {
  request_id: number;
  scope: ProgressScope;
  status: string;
  finished: 0 | 1;
  submission_date: string;
  due_key: string;
  total: number;
  complete: number;
  positives: number;
  last_entered_at: string | null;
  conformity_rank: number | null;
}

export interface AnalysisFacts {
  group: Group;
  value: string | null;
  remark: string | null;
  enteredAt: string | null;
  /** The decision against its specification (issue 26), when it got one. */
  decision?: { outcome: Outcome } | null;
}

/** The scopes of analyses of `groups`: 'all', their disciplines and their result groups' scopes. */
function scopesOfGroups(groups: Iterable<Group>): Set<ProgressScope> {
  const scopes = new Set<ProgressScope>(['all']);
  for (const group of groups) {
    scopes.add(disciplineOfGroup(group));
    scopes.add(scopeOfGroup(group));
  }
  return scopes;
}

/** What a scope's row counts of `analyses` (all of one request's). */
function numbersOf(scope: ProgressScope, analyses: readonly AnalysisFacts[]) {
  const groups = groupsOfScope(scope);
  const mine = groups ? analyses.filter((a) => groups.includes(a.group)) : analyses;
  const complete = mine.filter(isAnalysisComplete).length;
  return {
    // Mirrors the queue's "finished": it has analyses of the scope and none is missing a value or remark.
    finished: (mine.length > 0 && complete === mine.length ? 1 : 0) as 0 | 1,
    total: mine.length,
    complete,
    positives: mine.filter((a) => a.remark === 'positive').length,
    last_entered_at: mine.reduce<string | null>((max, a) => (a.enteredAt !== null && (max === null || a.enteredAt > max) ? a.enteredAt : max), null),
    conformity_rank: worstRank(mine.map((a) => a.decision?.outcome)),
  };
}

/** The rows of one request: its scopes from its ticked tests, their numbers from its analyses. */
function rowsOf(
  request: { id: number; status: string; submission_date: string; due_date: string | null },
  testCodes: readonly string[],
  analyses: readonly AnalysisFacts[],
): ProgressRow[] {
  const groups = testCodes.flatMap((code) => findAnalyte(code)?.group ?? []);
  return [...scopesOfGroups(groups)].map((scope) => ({
    request_id: request.id,
    scope,
    status: request.status,
    submission_date: request.submission_date,
    due_key: request.due_date ?? NO_DUE_DATE,
    ...numbersOf(scope, analyses),
  }));
}

const ANALYSIS_COLUMNS = ['request_id', 'result_group', 'value', 'remark', 'entered_at', 'decision_outcome'];

/** The rows of up to CHUNK_SIZE requests, computed from what is stored now. */
async function progressOf(db: Db, requestIds: readonly number[]): Promise<ProgressRow[]> {
  const requests: Array<{ id: number; status: string; submission_date: string; due_date: string | null }> = await db('requests')
    .whereIn('id', requestIds)
    .select('id', 'status', 'submission_date', 'due_date');
  if (requests.length === 0) return [];
  const ids = requests.map((r) => Number(r.id));
  const tests = new Map<number, string[]>();
  for (const t of await db('request_tests').whereIn('request_id', ids).select('request_id', 'test_code')) {
    const id = Number(t.request_id);
    tests.set(id, [...(tests.get(id) ?? []), t.test_code as string]);
  }
  const analyses = new Map<number, AnalysisFacts[]>();
  const arrays = await selectArrays(db, db('analyses').whereIn('request_id', ids).select(ANALYSIS_COLUMNS), ANALYSIS_COLUMNS);
  for (const [requestId, group, value, remark, enteredAt, outcome] of arrays as Array<[number, Group, string | null, string | null, string | null, Outcome | null]>) {
    const id = Number(requestId);
    const facts = { group, value, remark, enteredAt, decision: outcome ? { outcome } : null };
    const list = analyses.get(id);
    if (list) list.push(facts);
    else analyses.set(id, [facts]);
  }
  return requests.flatMap((r) => rowsOf({ ...r, id: Number(r.id) }, tests.get(Number(r.id)) ?? [], analyses.get(Number(r.id)) ?? []));
}

/**
 * Recomputes the progress rows of `requestIds` from their analyses and status, in `db`'s
 * transaction: call it after any change to a request's analyses, status or due date (a migration
 * before 022 names the columns its table has).
 */
export async function refreshProgress(db: Db, requestIds: Iterable<number>, columns: ProgressColumns = PROGRESS_COLUMNS): Promise<void> {
  const ids = [...new Set(requestIds)].sort((a, b) => a - b);
  await inChunks(ids, async (chunk) => {
    await db('request_progress').whereIn('request_id', chunk).delete();
    const rows = await progressOf(db, chunk);
    if (rows.length) await insertJsonRows(db, 'request_progress', columns, rows);
  });
}

/**
 * The rows of a request none of whose analyses has a result yet, from its ticked tests and the
 * result groups of its analyses: a submission's (no analyses yet) or an approval's (just planned).
 * The rows refreshProgress would compute, without reading back what the caller just wrote (each
 * statement is a round trip on PostgreSQL).
 */
function rowsWithoutResults(request: { id: number; status: string; submission_date: string; due_date: string | null }, testCodes: readonly string[], plannedGroups: readonly Group[]): ProgressRow[] {
  return rowsOf(request, testCodes, plannedGroups.map((group) => ({ group, value: null, remark: null, enteredAt: null })));
}

/**
 * The statements that replace a request's rows by those without results (an approval's, from the
 * analyses it just planned): its rows of other scopes deleted, these upserted, to run with its other
 * writes (runTogether, sql.ts). The rows of one request touch disjoint keys, so they go together.
 */
export function progressReplacing(
  db: Db,
  request: { id: number; status: string; submission_date: string; due_date: string | null },
  testCodes: readonly string[],
  plannedGroups: readonly Group[],
): Statement[] {
  const rows = rowsWithoutResults(request, testCodes, plannedGroups);
  return [
    db('request_progress').where('request_id', request.id).whereNotIn('scope', rows.map((r) => r.scope)).delete(),
    ...jsonRowsUpserts(db, 'request_progress', ['request_id', 'scope'], PROGRESS_COLUMNS, rows),
  ];
}

/** The inserts of a submitted request's rows (it has none yet), to run with its other writes (runTogether, sql.ts). */
export function progressInserts(db: Db, request: { id: number; status: string; submission_date: string; due_date: string | null }, testCodes: readonly string[]): Statement[] {
  return jsonRowsInserts(db, 'request_progress', PROGRESS_COLUMNS, rowsWithoutResults(request, testCodes, []));
}

const RESULT_NUMBER_COLUMNS = {
  status: 'text', finished: 'integer', total: 'integer', complete: 'integer', positives: 'integer', last_entered_at: 'text', conformity_rank: 'integer',
} as const;
/** What a result write sets of a row that keeps its status and finished flag: no column of the queues' indexes. */
const { status: _status, finished: _finished, ...UNINDEXED_NUMBER_COLUMNS } = RESULT_NUMBER_COLUMNS;

/** A request as a result write holds it: its status and ALL its analyses. */
export interface RequestWithResults {
  id: number;
  status: string;
  analyses: readonly AnalysisFacts[];
}

/** What a result write sets of the rows of `requests`, from what it holds: one per scope of its analyses. */
export function resultProgressRows(requests: readonly RequestWithResults[]) {
  return requests.flatMap(({ id, status, analyses }) =>
    [...scopesOfGroups(analyses.map((a) => a.group))].map((scope) => ({ request_id: id, scope, status, ...numbersOf(scope, analyses) })),
  );
}

/**
 * After results were written: sets the status and numbers of the rows of each request from its
 * status and ALL its analyses as they now stand, which the writer holds (it read them to decide the
 * status), so nothing is read back. A result write changes no ticked test, submission or due date,
 * so the set of rows and their sort keys stay; every scope a ticked test gives has the analyses the
 * approval planned for it (a request has at least one sample). `before`: resultProgressRows of the
 * same requests before the write. A row whose status and finished flag stay (most rows of most
 * writes) is set its numbers only: the queues' four indexes hold those two columns, and setting
 * them, even unchanged, rewrote every index entry (on SQLite a row cost 25 us instead of 7.5).
 * The updates, to run with the results' other writes (runTogether, sql.ts).
 */
export function progressAfterResults(db: Db, requests: readonly RequestWithResults[], before: ReturnType<typeof resultProgressRows>): Statement[] {
  const keyOf = (row: { request_id: number; scope: string }) => `${row.request_id} ${row.scope}`;
  const was = new Map(before.map((row) => [keyOf(row), row]));
  const moving = [];
  const staying = [];
  for (const row of resultProgressRows(requests)) {
    const old = was.get(keyOf(row));
    if (old && old.status === row.status && old.finished === row.finished) staying.push(row);
    else moving.push(row);
  }
  const keys = { request_id: 'integer', scope: 'text' } as const;
  return [...jsonRowsUpdates(db, 'request_progress', keys, RESULT_NUMBER_COLUMNS, moving), ...jsonRowsUpdates(db, 'request_progress', keys, UNINDEXED_NUMBER_COLUMNS, staying)];
}

/**
 * Recomputes every row (the migrations' backfill, and a repair after bulk changes); a migration
 * before 022 writes the columns its table has.
 */
export async function rebuildProgress(db: Db, columns: ProgressColumns = PROGRESS_COLUMNS): Promise<void> {
  await db('request_progress').delete();
  const ids: number[] = (await db('requests').orderBy('id').pluck('id')).map(Number);
  await inChunks(ids, async (chunk) => {
    const rows = await progressOf(db, chunk);
    if (rows.length) await insertJsonRows(db, 'request_progress', columns, rows);
  });
}
