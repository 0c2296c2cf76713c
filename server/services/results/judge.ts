// Judging a request's stored results again (issue 26): after an amendment changed them, or when staff
// re-evaluate a released request against the specifications and rule in force now. Each analysis
// with a value gets the decision of its stored measurement (or, for a qualitative specification,
// its + / −) against the specification in force on its analysis date (today without one).
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { judgedColumns, judgedOf, JUDGED_COLUMNS, type JudgedRow } from '../../db/analyses.js';
import { specificationsOf } from '../../db/specificationRows.js';
import { applicableSpecification, judgeStored, sameDecision, type Decision } from '../../domain/specifications.js';
import { readDecisionRule, sampleScope, scopeOfRow, today } from '../specifications.js';

export interface Rejudged {
  sampleId: number;
  testCode: string;
  before: Decision | null;
  after: Decision | null;
}

/** Stores the decisions `requestId`'s results (those of `only`, given) get now, and answers those that changed. */
export async function rejudgeRequest(
  trx: Knex.Transaction, clock: Clock, requestId: number, only?: ReadonlyArray<{ sampleId: number; testCode: string }>,
): Promise<Rejudged[]> {
  const wanted = only && new Set(only.map((a) => `${a.sampleId}:${a.testCode}`));
  const request = await trx('requests').where({ id: requestId }).first('sample_category', 'testing_purpose');
  const rows: Array<Partial<JudgedRow> & { id: number; sample_id: number; species: string | null; test_code: string; value: string | null; remark: 'positive' | 'negative' | null; analysis_date: string | null }> =
    await trx('analyses as a').join('samples as s', 's.id', 'a.sample_id').where('a.request_id', requestId)
      .select('a.id', 'a.sample_id', 's.species', 'a.test_code', 'a.value', 'a.remark', 'a.analysis_date', ...JUDGED_COLUMNS.map((c) => `a.${c}`));
  const specs = await specificationsOf(trx, [...new Set(rows.map((r) => r.test_code))]);
  const rule = await readDecisionRule(trx);
  const scope = scopeOfRow(request ?? {});
  const changed: Rejudged[] = [];
  for (const row of rows) {
    if (wanted && !wanted.has(`${row.sample_id}:${row.test_code}`)) continue;
    const { measurement, decision: before } = judgedOf(row);
    const spec = row.value === null ? null : applicableSpecification(specs, { analyte: row.test_code, ...sampleScope(scope, row.species), on: row.analysis_date ?? today(clock) });
    const after = judgeStored(spec, { value: row.value, remark: row.remark, measurement }, rule);
    if (sameDecision(before, after)) continue;
    await trx('analyses').where({ id: row.id }).update(judgedColumns(measurement, after));
    changed.push({ sampleId: Number(row.sample_id), testCode: row.test_code, before, after });
  }
  return changed;
}
