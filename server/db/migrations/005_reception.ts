// Issue 15 (traceability): the receipt of a request's samples, indexes for the audit trail viewer's
// filters, and an audit log that the database itself keeps append-only.
import type { Knex } from 'knex';
import { dropAppendOnly, makeAppendOnly } from '../appendOnly.js';

const TS = 40;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sample_receipts', (t) => {
    t.increments('id').primary();
    // One receipt per request: the samples arrive together with the request form.
    t.integer('request_id').notNullable().unique().references('id').inTable('requests').onDelete('CASCADE');
    t.string('received_at', TS).notNullable();
    t.integer('received_by').notNullable().references('id').inTable('users');
    t.integer('containers').notNullable();
    t.string('condition', 20).notNullable();
    t.text('reason').nullable();
    t.double('temperature_c').nullable();
    t.string('recorded_at', TS).notNullable();
  });
  await knex.schema.alterTable('audit_log', (t) => {
    t.index(['actor_user_id', 'at']);
    t.index(['action', 'at']);
  });
  await makeAppendOnly(knex, 'audit_log');
}

export async function down(knex: Knex): Promise<void> {
  await dropAppendOnly(knex, 'audit_log');
  await knex.schema.alterTable('audit_log', (t) => {
    t.dropIndex(['actor_user_id', 'at']);
    t.dropIndex(['action', 'at']);
  });
  await knex.schema.dropTable('sample_receipts');
}
