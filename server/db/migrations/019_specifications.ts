// Results judged against specifications (issue 26). `specifications`: versioned rows, never updated
// (a new version is a new row; the PostgreSQL portal role may only read and append them, roles.ts),
// seeded with the product's default set (domain/defaultSpecifications.ts). `analyses` gains the
// measured value with its unit, U, k and qualifier, and the decision with the specification version
// and rule it used. The laboratory's decision rule is the setting `decision_rule` (table of 012).
import type { Knex } from 'knex';
import { DEFAULT_SPECIFICATIONS } from '../../domain/defaultSpecifications.js';
import { trackChanges, untrackChanges } from '../changeVersions.js';
import { specificationRow } from '../specificationRows.js';

const TS = 30;
const ANALYSIS_COLUMNS = [
  'measured_value', 'uncertainty', 'coverage_k', 'measured_unit', 'qualifier',
  'decision_outcome', 'decision_reason', 'specification_id', 'specification_version', 'decision_rule', 'expected_remark',
];
const SEEDED_AT = '2026-11-26T00:00:00.000Z';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('specifications', (t) => {
    t.increments('id').primary();
    t.string('analyte', 40).notNullable();
    t.integer('version').notNullable();
    t.string('sample_category', 40).nullable();
    t.string('species', 40).nullable();
    t.string('purpose', 40).nullable();
    t.string('kind', 16).notNullable();
    t.string('unit', 40).nullable();
    for (const c of ['lod', 'loq', 'lower_limit', 'upper_limit', 'warning_level', 'plan_m', 'plan_big_m']) t.double(c).nullable();
    t.integer('plan_n').nullable();
    t.integer('plan_c').nullable();
    t.text('source').notNullable();
    t.string('valid_from', 10).notNullable();
    t.string('valid_to', 10).nullable();
    t.integer('supersedes_id').nullable().references('id').inTable('specifications');
    t.string('created_by', 200).notNullable();
    t.string('created_at', TS).notNullable();
    // The list filters (analyte, current) and the lookup at a save: by analyte, then dates.
    t.index(['analyte', 'valid_from', 'id']);
  });
  await trackChanges(knex, 'specifications');
  await knex('specifications').insert(DEFAULT_SPECIFICATIONS.map((s) => specificationRow({ ...s, version: 1, createdBy: 'labctl migrate (019_specifications)', createdAt: SEEDED_AT })));

  await knex.schema.alterTable('analyses', (t) => {
    for (const c of ['measured_value', 'uncertainty', 'coverage_k']) t.double(c).nullable();
    t.string('measured_unit', 40).nullable();
    t.string('qualifier', 16).nullable();
    t.string('decision_outcome', 20).nullable();
    t.text('decision_reason').nullable();
    t.integer('specification_id').nullable();
    t.integer('specification_version').nullable();
    t.string('decision_rule', 10).nullable();
    t.string('expected_remark', 10).nullable();
    // Non-conformity counts per analyte and month (reports).
    t.index(['decision_outcome', 'report_month', 'test_code']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('analyses', (t) => t.dropIndex(['decision_outcome', 'report_month', 'test_code']));
  // Plain ALTER TABLE on both engines: knex would rebuild the SQLite table, and with it lose its triggers.
  for (const c of ANALYSIS_COLUMNS) await knex.raw('ALTER TABLE analyses DROP COLUMN ??', [c]);
  await knex('settings').where({ key: 'decision_rule' }).delete();
  await untrackChanges(knex, 'specifications');
  await knex.schema.dropTable('specifications');
}
