// `labctl specs export` and `labctl specs import` (issue 26): the specifications as CSV, and an
// import checked row by row (line numbers), all or nothing. An import adds versions; it never
// changes a stored one, and it refuses a version that would judge a released result differently
// (released decisions change only by re-evaluation, an audited amendment).
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { judgedOf, JUDGED_COLUMNS, type JudgedRow } from '../db/analyses.js';
import { specificationsOf } from '../db/specificationRows.js';
import { inTransaction } from '../db/transaction.js';
import { can, type Actor } from '../domain/policies.js';
import { parseSpecificationsCsv, specificationsCsv, type SpecCsvProblem, type SpecCsvRow } from '../domain/specificationsCsv.js';
import {
  applicableSpecification, decide, measurementFromRemark, OUTCOME_TEXT, SpecificationDraftSchema, type Specification,
} from '../domain/specifications.js';
import { AppError, forbidden } from '../errors.js';
import { checkNewSpecification, sampleScope, scopeOfRow, storeSpecification } from './specifications.js';

export async function exportSpecifications(db: Knex): Promise<{ csv: string; specifications: Specification[] }> {
  const specifications = await specificationsOf(db);
  return { csv: specificationsCsv(specifications), specifications };
}

export type SpecImportResult =
  | { imported: true; dryRun: boolean; added: Array<{ line: number; analyte: string; version: number }>; unchanged: number }
  | { imported: false; problems: SpecCsvProblem[] };

const DRAFT_FIELDS = [...SpecificationDraftSchema.keyof().options];
const sameDraft = (row: SpecCsvRow, stored: Specification) => DRAFT_FIELDS.every((f) => (row.draft[f] ?? null) === (stored[f] ?? null));

export async function importSpecifications(
  deps: { db: Knex; clock: Clock }, actor: Actor, text: string, options: { dryRun?: boolean; fileName: string },
): Promise<SpecImportResult> {
  if (!can(actor, 'specs:manage')) throw forbidden('Only staff and admin accounts manage specifications.');
  const { rows, problems } = parseSpecificationsCsv(text);
  if (problems.some((p) => p.line === 1)) return { imported: false, problems };
  return inTransaction(deps.db, async (trx) => {
    const working = await specificationsOf(trx);
    const byId = new Map(working.map((s) => [s.id, s]));
    const added: Array<{ row: SpecCsvRow; spec: Specification }> = [];
    let unchanged = 0;
    for (const row of rows) {
      if (row.id !== null) {
        const stored = byId.get(row.id);
        if (!stored) problems.push({ line: row.line, message: `id ${row.id} is not a stored specification (leave id empty for a new one)` });
        else if (!sameDraft(row, stored)) {
          problems.push({ line: row.line, message: `specification ${row.id} (${stored.analyte} version ${stored.version}) differs from the stored one: a version is never changed; leave id empty and set supersedes=${row.id} to add a new version` });
        } else unchanged += 1;
        continue;
      }
      try {
        const version = checkNewSpecification(working, { ...row.draft, supersedes: row.supersedes });
        // A placeholder id (negative) until stored: later rows may check against it.
        const spec: Specification = { ...row.draft, id: -row.line, version, createdBy: '', createdAt: '' };
        working.push(spec);
        added.push({ row, spec });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        problems.push({ line: row.line, message: err.message });
      }
    }
    problems.push(...(await releasedDecisionsChanged(trx, working, added)));
    if (problems.length) return { imported: false, problems: problems.sort((a, b) => a.line - b.line) };
    if (!options.dryRun) {
      for (const { row, spec } of added) {
        await storeSpecification(trx, deps.clock, actor, { ...row.draft, supersedes: row.supersedes }, spec.version, { source: options.fileName });
      }
    }
    return { imported: true, dryRun: Boolean(options.dryRun), added: added.map(({ row, spec }) => ({ line: row.line, analyte: spec.analyte, version: spec.version })), unchanged };
  });
}

/**
 * The released results that a new specification of the file would judge differently (under the rule
 * each decision used), named on the line of that specification: one query for the released decisions.
 */
async function releasedDecisionsChanged(trx: Knex.Transaction, specs: Specification[], added: Array<{ row: SpecCsvRow; spec: Specification }>): Promise<SpecCsvProblem[]> {
  if (added.length === 0) return [];
  const lineOf = new Map(added.map(({ row, spec }) => [spec, row.line]));
  const released: Array<Partial<JudgedRow> & { control_number: string; position: number; test_code: string; remark: 'positive' | 'negative' | null; analysis_date: string | null; entered_at: string | null; sample_category: string; testing_purpose: string; species: string | null }> =
    await trx('analyses as a')
      .join('requests as r', 'r.id', 'a.request_id')
      .join('samples as s', 's.id', 'a.sample_id')
      .where('r.status', 'RELEASED')
      .whereNotNull('a.decision_outcome')
      .whereIn('a.test_code', [...new Set(added.map((a) => a.spec.analyte))])
      .select('r.control_number', 'r.sample_category', 'r.testing_purpose', 's.position', 's.species', 'a.test_code', 'a.remark', 'a.analysis_date', 'a.entered_at', ...JUDGED_COLUMNS.map((c) => `a.${c}`));
  const problems: SpecCsvProblem[] = [];
  for (const r of released) {
    const on = r.analysis_date ?? String(r.entered_at ?? '').slice(0, 10);
    const spec = applicableSpecification(specs, { analyte: r.test_code, ...sampleScope(scopeOfRow(r), r.species), on });
    const line = spec ? lineOf.get(spec) : undefined;
    if (!spec || line === undefined) continue;
    const { measurement, decision } = judgedOf(r);
    const judged = measurement ?? (spec.kind === 'qualitative' && r.remark ? measurementFromRemark(r.remark) : null);
    const now = judged && decide(spec, judged, decision!.rule);
    if (now?.outcome === decision!.outcome) continue;
    problems.push({
      line,
      message: `would change the released decision of ${r.control_number} sample ${r.position} ${r.test_code} (${OUTCOME_TEXT[decision!.outcome]} -> ${now ? OUTCOME_TEXT[now.outcome] : 'none'}): released decisions change only by re-evaluation; start this version after ${on}, or add it in the portal and re-evaluate the request`,
    });
  }
  return problems;
}
