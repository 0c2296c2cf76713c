// The results template (`labctl results template`, GET results/template): the analyses of a
// discipline still waiting for a result, as rows of the import layout with the value columns empty,
// read a keyset page at a time so a large laboratory's template streams in bounded memory.
import type { Knex } from 'knex';
import { selectArrays } from '../../db/sql.js';
import { DISCIPLINE_GROUPS } from '../../domain/catalog.js';
import { can, type Actor } from '../../domain/policies.js';
import type { WorkState } from '../../domain/queue.js';
import { OPEN_STATUSES } from '../../domain/requestStatus.js';
import { csvLine } from '../../domain/csv.js';
import { RESULTS_CSV_HEADER } from '../../domain/resultsCsv.js';
import type { Discipline } from '../../domain/roles.js';
import { forbidden, notFound } from '../../errors.js';

/** Rows per query. */
export const TEMPLATE_PAGE = 5000;

export interface TemplateFilter {
  discipline: Discipline;
  /** outstanding (default): analyses without a value or remark; finished: the others; all. */
  state?: WorkState;
  /** Only this request (its id). */
  requestId?: number;
}

export interface TemplateRow {
  controlNumber: string;
  samplePosition: number;
  testCode: string;
}

/** Staff, admins and the discipline's testers may read its template. */
export function assertMayReadTemplate(actor: Actor, discipline: Discipline): void {
  if (!DISCIPLINE_GROUPS[discipline].every((group) => can(actor, 'results:read', { group }))) {
    throw forbidden(`Only staff and ${discipline} testers may download the ${discipline} results template.`);
  }
}

/** The id of a request named by id ("12") or control number ("2026-0012"), or 404. */
export async function requestIdOf(db: Knex, reference: string): Promise<number> {
  const query = /^[0-9]+$/.test(reference) ? db('requests').where('id', Number(reference)) : db('requests').where('control_number', reference);
  const row = await query.first('id');
  if (!row) throw notFound(`No request ${reference}.`);
  return Number(row.id);
}

/**
 * The template's rows, a page (one query) at a time, by request, then sample and analysis: the
 * analyses of `discipline` in open requests (FOR TESTING, FOR RELEASE) in the state asked for.
 */
export async function* templateRows(db: Knex, filter: TemplateFilter, pageSize = TEMPLATE_PAGE): AsyncGenerator<TemplateRow[]> {
  const columns = ['request_id', 'id', 'control_number', 'position', 'test_code'];
  const state = filter.state ?? 'outstanding';
  let after: { requestId: number; id: number } | null = null;
  for (;;) {
    const query = db('analyses as a')
      .join('requests as r', 'r.id', 'a.request_id')
      .join('samples as s', 's.id', 'a.sample_id')
      .whereIn('r.status', OPEN_STATUSES)
      .whereIn('a.result_group', DISCIPLINE_GROUPS[filter.discipline])
      .orderBy([{ column: 'a.request_id' }, { column: 'a.id' }])
      .limit(pageSize)
      .select('a.request_id', 'a.id', 'r.control_number', 's.position', 'a.test_code');
    if (filter.requestId !== undefined) query.where('a.request_id', filter.requestId);
    if (state !== 'all') {
      const missing = "(a.value is null or trim(a.value) = '' or a.remark is null or a.remark not in ('positive', 'negative'))";
      query.whereRaw(state === 'outstanding' ? missing : `not ${missing}`);
    }
    if (after) {
      const { requestId, id } = after;
      query.where((q) => q.where('a.request_id', '>', requestId).orWhere((same) => same.where('a.request_id', requestId).andWhere('a.id', '>', id)));
    }
    const rows = (await selectArrays(db, query, columns)) as Array<[number, number, string, number, string]>;
    if (rows.length === 0) return;
    yield rows.map(([, , controlNumber, position, testCode]) => ({ controlNumber, samplePosition: Number(position), testCode }));
    if (rows.length < pageSize) return;
    const [requestId, id] = rows[rows.length - 1];
    after = { requestId: Number(requestId), id: Number(id) };
  }
}

/** The template as CSV text, header first, a chunk per page (CRLF line ends, as the CSV exports). */
export async function* templateCsv(db: Knex, filter: TemplateFilter, pageSize = TEMPLATE_PAGE): AsyncGenerator<string> {
  yield `${RESULTS_CSV_HEADER}\r\n`;
  for await (const page of templateRows(db, filter, pageSize)) {
    yield page.map((r) => `${csvLine([r.controlNumber, r.samplePosition, r.testCode, '', '', ''])}\r\n`).join('');
  }
}
