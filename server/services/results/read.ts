// Reading results: the analyses of requests in the wide shapes of the results calls, and the use cases
// of reading them (who may read which request's results, and which groups of them). Every list costs
// a fixed number of queries.
import type { Knex } from 'knex';
import { judgedOf, JUDGED_COLUMNS, type JudgedRow } from '../../db/analyses.js';
import { inChunks } from '../../db/sql.js';
import { GROUPS, type Group } from '../../domain/catalog.js';
import { can, hidesMissing, visibleGroups, type Actor } from '../../domain/policies.js';
import {
  groupsOfTests,
  limitToGroups,
  toCombinedResult,
  toWideResults,
  type AnalysisRecord,
  type CombinedResult,
  type Remark,
  type WideResult,
} from '../../domain/resultShape.js';
import { disciplineOf } from '../../domain/roles.js';
import { forbidden, notFound } from '../../errors.js';
import { listRequests } from '../requests/read.js';
import { OPEN_STATUSES } from '../../domain/requestStatus.js';

interface AnalysisRow extends Partial<JudgedRow> {
  request_id: number;
  sample_id: number;
  position: number;
  test_code: string;
  result_group: string;
  value: string | null;
  remark: string | null;
  analysis_date: string | null;
}

const ANALYSIS_COLUMNS = ['a.request_id', 'a.sample_id', 's.position', 'a.test_code', 'a.result_group', 'a.value', 'a.remark', 'a.analysis_date', ...JUDGED_COLUMNS.map((c) => `a.${c}`)];

export function toAnalysisRecord(row: AnalysisRow): AnalysisRecord {
  return {
    requestId: Number(row.request_id),
    sampleId: Number(row.sample_id),
    samplePosition: Number(row.position),
    testCode: row.test_code,
    group: row.result_group as Group,
    value: row.value,
    remark: row.remark as Remark | null,
    analysisDate: row.analysis_date,
    ...judgedOf(row),
  };
}

/** Every analysis of the given requests (one query per CHUNK_SIZE requests). */
export async function analysesOf(db: Knex | Knex.Transaction, requestIds: readonly number[]): Promise<AnalysisRecord[]> {
  return inChunks(requestIds, async (ids) => {
    const rows: AnalysisRow[] = await db('analyses as a').join('samples as s', 's.id', 'a.sample_id').whereIn('a.request_id', ids).select(ANALYSIS_COLUMNS);
    return rows.map(toAnalysisRecord);
  });
}

/** The combined result of each request, in the order of `requestIds`. */
export async function combinedResults(db: Knex | Knex.Transaction, requestIds: readonly number[]): Promise<CombinedResult[]> {
  const byRequest = new Map<number, AnalysisRecord[]>(requestIds.map((id) => [id, []]));
  for (const a of await analysesOf(db, requestIds)) byRequest.get(a.requestId)?.push(a);
  return requestIds.map((id) => toCombinedResult(id, byRequest.get(id) ?? []));
}

/**
 * GET /microbioTestResults and its siblings: one item per sample with analyses of `group`, for the
 * requests still open for results (`openOnly`) or for every request. One query.
 */
export async function groupResults(db: Knex | Knex.Transaction, group: Group, { openOnly }: { openOnly: boolean }): Promise<WideResult[]> {
  const query = db('analyses as a')
    .join('samples as s', 's.id', 'a.sample_id')
    .where('a.result_group', group)
    .select(ANALYSIS_COLUMNS);
  if (openOnly) query.join('requests as r', 'r.id', 'a.request_id').whereIn('r.status', OPEN_STATUSES);
  const rows: AnalysisRow[] = await query;
  return toWideResults(group, rows.map(toAnalysisRecord));
}


/**
 * The combined results of `requestIds` (in that order) for `actor`, a tester's limited to its own
 * groups. 403 for a request the actor may not read; 404 for a missing one, or 403 for a client (as
 * for someone else's request, so it cannot probe which ids exist).
 */
export async function readRequestResults(db: Knex, actor: Actor, requestIds: readonly number[]): Promise<CombinedResult[]> {
  const notTheirs = 'You do not have permission to read these results.';
  const requests = await listRequests(db, (q) => q.whereIn('requests.id', requestIds));
  const found = new Map(requests.map((r) => [r.requestId, r]));
  const missing = requestIds.filter((id) => !found.has(id));
  if (missing.length) throw hidesMissing(actor) ? forbidden(notTheirs) : notFound(`No request with id ${missing.join(', ')}.`);
  for (const r of requests) {
    const resource = { clientUserId: r.clientUserId, requestStatus: r.requestStatus, groups: groupsOfTests(r.tests) };
    if (!can(actor, 'results:read-request', resource)) {
      throw forbidden(actor.role === 'client' && r.clientUserId === actor.id ? 'The results of this request are not released yet.' : notTheirs);
    }
  }
  const groups = visibleGroups(actor) ?? GROUPS;
  return (await combinedResults(db, requestIds)).map((c) => limitToGroups(c, groups));
}

/** The tester list of `group` (GET /microbioTestResults and its siblings): testers work on open requests, the desk sees every request. */
export async function readGroupResults(db: Knex, actor: Actor, group: Group): Promise<WideResult[]> {
  if (!can(actor, 'results:read', { group })) throw forbidden();
  return groupResults(db, group, { openOnly: disciplineOf(actor.role) !== null });
}
