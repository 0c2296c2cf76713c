// Issued test reports (certificates of analysis, ISO/IEC 17025 7.8): one row per issue of a request's
// report. Release issues version 1, each amendment the next version naming the report it replaces.
// A row is never updated: `content` is the snapshot the certificate prints (client, samples, dates,
// results), so an old report stays readable exactly as issued after the results were amended.
import type { Knex } from 'knex';

const TS = 30;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('reports', (t) => {
    t.increments('id').primary();
    t.integer('request_id').notNullable().references('id').inTable('requests').onDelete('CASCADE');
    t.integer('version').notNullable();
    t.string('report_number', 40).notNullable().unique();
    t.integer('replaces_report_id').nullable().references('id').inTable('reports');
    // Public verification: an unguessable token, never a sequence number.
    t.string('verification_token', 64).notNullable().unique();
    t.string('issued_at', TS).notNullable();
    // The electronic signature (21 CFR 11.50): who, when (issued_at) and what it means.
    t.integer('signed_by').notNullable().references('id').inTable('users');
    t.string('signer_name', 250).notNullable();
    t.string('signature_meaning', 200).notNullable();
    t.text('amendment_reason').nullable();
    t.text('content').notNullable();
    t.unique(['request_id', 'version']);
    t.index(['replaces_report_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('reports');
}
