// The specifications table (migration 019) and the domain's Specification, both ways: one place
// names the columns.
import type { Knex } from 'knex';
import type { ReportSpecification } from '../domain/certificate.js';
import { requirementText, type Specification, type SpecificationDraft, type SpecKind } from '../domain/specifications.js';

export type SpecificationInsert = SpecificationDraft & Pick<Specification, 'version' | 'createdBy' | 'createdAt'> & { supersedes?: number | null };

export function specificationRow(s: SpecificationInsert) {
  return {
    analyte: s.analyte, version: s.version, sample_category: s.sampleCategory, species: s.species, purpose: s.purpose,
    kind: s.kind, unit: s.unit, lod: s.lod, loq: s.loq, lower_limit: s.lowerLimit, upper_limit: s.upperLimit, warning_level: s.warningLevel,
    plan_n: s.n, plan_c: s.c, plan_m: s.m, plan_big_m: s.M, source: s.source, valid_from: s.validFrom, valid_to: s.validTo,
    supersedes_id: s.supersedes ?? null, created_by: s.createdBy, created_at: s.createdAt,
  };
}

type Row = ReturnType<typeof specificationRow> & { id: number | string };

const num = (v: unknown) => (v == null ? null : Number(v));

export function toSpecification(r: Row): Specification {
  return {
    id: Number(r.id), analyte: r.analyte, version: Number(r.version), sampleCategory: r.sample_category, species: r.species, purpose: r.purpose,
    kind: r.kind as SpecKind, unit: r.unit, lod: num(r.lod), loq: num(r.loq), lowerLimit: num(r.lower_limit), upperLimit: num(r.upper_limit),
    warningLevel: num(r.warning_level), n: num(r.plan_n), c: num(r.plan_c), m: num(r.plan_m), M: num(r.plan_big_m),
    source: r.source, validFrom: r.valid_from, validTo: r.valid_to, createdBy: r.created_by, createdAt: r.created_at,
  };
}

function specificationsQuery(db: Knex | Knex.Transaction, analytes?: readonly string[]): Knex.QueryBuilder {
  const query = db('specifications').orderBy([{ column: 'analyte' }, { column: 'valid_from' }, { column: 'id' }]);
  if (analytes) query.whereIn('analyte', [...analytes]);
  return query;
}

/** The specifications of `analytes` (every one when omitted), oldest first: one query. */
export async function specificationsOf(db: Knex | Knex.Transaction, analytes?: readonly string[]): Promise<Specification[]> {
  return ((await specificationsQuery(db, analytes)) as Row[]).map(toSpecification);
}

/**
 * The specifications of `analytes` and the setting `key`, in one statement (a round trip fewer on a
 * write's path): the setting rides on each row, so it is undefined when there is no specification.
 */
export async function specificationsWithSetting(db: Knex | Knex.Transaction, analytes: readonly string[], key: string): Promise<{ specs: Specification[]; setting: string | undefined }> {
  const setting = db('settings').where('key', key).select('value').as('setting');
  const rows = (await specificationsQuery(db, analytes).select('specifications.*', setting)) as Array<Row & { setting: string | null }>;
  return { specs: rows.map(toSpecification), setting: rows[0]?.setting ?? undefined };
}

/** Inserts one specification and answers it with its id. */
export async function insertSpecification(trx: Knex.Transaction, s: SpecificationInsert): Promise<Specification> {
  const [row] = (await trx('specifications').insert(specificationRow(s)).returning('*')) as Row[];
  return toSpecification(row);
}

/** The columns a report reads of the specification a decision used, selected as `spec_<column>`. */
export const SPECIFICATION_COLUMNS = ['version', 'kind', 'unit', 'lower_limit', 'upper_limit', 'plan_n', 'plan_c', 'plan_m', 'plan_big_m', 'source'] as const;
export type SpecificationColumns = { [K in (typeof SPECIFICATION_COLUMNS)[number] as `spec_${K}`]: Row[K] };

export function reportSpecification(r: Partial<SpecificationColumns>): ReportSpecification {
  const requirement = requirementText({
    kind: r.spec_kind as SpecKind, unit: r.spec_unit ?? null, lowerLimit: num(r.spec_lower_limit), upperLimit: num(r.spec_upper_limit),
    n: num(r.spec_plan_n), c: num(r.spec_plan_c), m: num(r.spec_plan_m), M: num(r.spec_plan_big_m),
  });
  return { version: Number(r.spec_version), requirement, source: r.spec_source ?? '' };
}
