// Reading results: the analyses of requests in the wide shapes of the results calls. Every list costs
// a fixed number of queries.
import type { Knex } from 'knex';
import type { Group } from '../../domain/catalog.js';
import { toCombinedResult, toWideResults, type AnalysisRecord, type CombinedResult, type Remark, type WideResult } from '../../domain/resultShape.js';
import type { RequestStatus } from '../../domain/requestStatus.js';

/** Statuses in which results are being entered (and may still change). */
export const OPEN_STATUSES: readonly RequestStatus[] = ['FOR_TESTING', 'FOR_RELEASE'];

const CHUNK = 500;

interface AnalysisRow {
  request_id: number;
  sample_id: number;
  position: number;
  test_code: string;
  result_group: string;
  value: string | null;
  remark: string | null;
  analysis_date: string | null;
}

const ANALYSIS_COLUMNS = ['a.request_id', 'a.sample_id', 's.position', 'a.test_code', 'a.result_group', 'a.value', 'a.remark', 'a.analysis_date'];

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
  };
}

/** Every analysis of the given requests (one query per 500 requests). */
export async function analysesOf(db: Knex | Knex.Transaction, requestIds: readonly number[]): Promise<AnalysisRecord[]> {
  const records: AnalysisRecord[] = [];
  for (let i = 0; i < requestIds.length; i += CHUNK) {
    const rows: AnalysisRow[] = await db('analyses as a')
      .join('samples as s', 's.id', 'a.sample_id')
      .whereIn('a.request_id', requestIds.slice(i, i + CHUNK))
      .select(ANALYSIS_COLUMNS);
    records.push(...rows.map(toAnalysisRecord));
  }
  return records;
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

