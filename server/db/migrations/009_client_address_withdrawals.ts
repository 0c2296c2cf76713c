// Issue 14, the last items of the certificate of analysis: the client's postal address (ISO/IEC 17025
// 7.8.2.1 e asks for the customer's name AND address) and the withdrawal of a released report. A
// withdrawal is a row of its own, so the report row (its printed snapshot) is still never updated.
import type { Knex } from 'knex';

const TS = 30;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('clients', (t) => {
    t.string('address', 300).nullable();
  });
  await knex.schema.createTable('report_withdrawals', (t) => {
    t.increments('id').primary();
    // A report is withdrawn once.
    t.integer('report_id').notNullable().unique().references('id').inTable('reports').onDelete('CASCADE');
    t.string('withdrawn_at', TS).notNullable();
    // The electronic signature (21 CFR 11.50): who, when (withdrawn_at) and what it means.
    t.integer('withdrawn_by').notNullable().references('id').inTable('users');
    t.string('signer_name', 250).notNullable();
    t.string('signature_meaning', 200).notNullable();
    t.text('reason').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('report_withdrawals');
  await knex.schema.alterTable('clients', (t) => {
    t.dropColumn('address');
  });
}
