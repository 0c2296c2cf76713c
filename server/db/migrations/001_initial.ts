// The whole data model of DESIGN.md section 4. Timestamps are ISO 8601 UTC text and dates YYYY-MM-DD
// text on both databases, so sorting, comparing and month bucketing (substr) behave the same.
import type { Knex } from 'knex';

const TS = 30;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.increments('id').primary();
    t.string('username', 64).nullable();
    t.string('username_lower', 64).nullable().unique();
    t.string('first_name', 100).notNullable();
    t.string('middle_name', 1).nullable();
    t.string('last_name', 100).notNullable();
    t.string('contact_number', 20).notNullable().defaultTo('');
    t.string('email', 254).notNullable().unique();
    t.string('password_hash', 200).notNullable();
    t.string('role', 20).notNullable();
    t.string('deletion_status', 10).notNullable().defaultTo('ACTIVE');
    t.string('email_verified_at', TS).nullable();
    t.string('created_at', TS).notNullable();
    t.string('updated_at', TS).notNullable();
    t.index(['role']);
  });

  await knex.schema.createTable('clients', (t) => {
    t.integer('user_id').primary().references('id').inTable('users').onDelete('CASCADE');
    t.string('company_name', 200).notNullable();
    t.string('lto_no', 12).notNullable();
    t.string('classification', 100).notNullable();
  });

  await knex.schema.createTable('requests', (t) => {
    t.increments('id').primary();
    t.string('control_number', 20).nullable().unique();
    t.integer('client_user_id').notNullable().references('id').inTable('users');
    t.string('status', 20).notNullable();
    t.string('representative_name', 200).notNullable();
    t.string('contact_number', 20).notNullable();
    t.string('email_address', 254).notNullable();
    t.string('company_name', 200).notNullable();
    t.string('client_classification', 100).notNullable();
    t.string('lto_number', 12).nullable();
    t.string('testing_purpose', 20).notNullable();
    t.string('other_testing_purpose', 200).nullable();
    t.string('sample_category', 20).notNullable();
    t.string('lot_batch_no', 100).nullable();
    t.string('sample_source', 200).nullable();
    t.string('production_date', 10).nullable();
    t.string('expiry_date', 10).nullable();
    t.string('sampling_date', 10).nullable();
    t.string('sampler_name', 200).nullable();
    t.text('gram_positive_ast').nullable();
    t.text('gram_negative_ast').nullable();
    t.integer('estimated_fee').notNullable().defaultTo(0);
    t.string('due_date', 10).nullable();
    t.string('submission_date', TS).notNullable();
    t.string('created_at', TS).notNullable();
    t.string('updated_at', TS).notNullable();
    t.integer('approved_by').nullable().references('id').inTable('users');
    t.string('approved_at', TS).nullable();
    t.integer('released_by').nullable().references('id').inTable('users');
    t.string('released_at', TS).nullable();
    t.integer('rejected_by').nullable().references('id').inTable('users');
    t.string('rejected_at', TS).nullable();
    t.index(['status', 'submission_date']);
    t.index(['client_user_id', 'submission_date']);
    t.index(['approved_by', 'approved_at']);
  });

  await knex.schema.createTable('request_tests', (t) => {
    t.integer('request_id').notNullable().references('id').inTable('requests').onDelete('CASCADE');
    t.string('test_code', 40).notNullable();
    t.primary(['request_id', 'test_code']);
    t.index(['test_code']);
  });

  await knex.schema.createTable('samples', (t) => {
    t.increments('id').primary();
    t.integer('request_id').notNullable().references('id').inTable('requests').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('sample_type_description').notNullable();
    t.unique(['request_id', 'position']);
  });

  await knex.schema.createTable('analyses', (t) => {
    t.increments('id').primary();
    t.integer('request_id').notNullable().references('id').inTable('requests').onDelete('CASCADE');
    t.integer('sample_id').notNullable().references('id').inTable('samples').onDelete('CASCADE');
    t.string('test_code', 40).notNullable();
    t.string('family', 10).notNullable();
    t.string('result_group', 16).notNullable();
    t.text('value').nullable();
    t.string('remark', 10).nullable();
    t.string('analysis_date', 10).nullable();
    // YYYY-MM of the analysis date, or of the save when there is none: the month a report counts it in.
    t.string('report_month', 7).nullable();
    t.integer('entered_by').nullable().references('id').inTable('users');
    t.string('entered_at', TS).nullable();
    t.unique(['sample_id', 'test_code']);
    t.index(['request_id', 'result_group']);
    t.index(['test_code', 'report_month', 'remark']);
  });

  await knex.schema.createTable('request_messages', (t) => {
    t.increments('id').primary();
    t.integer('request_id').notNullable().references('id').inTable('requests').onDelete('CASCADE');
    t.integer('author_user_id').notNullable().references('id').inTable('users');
    t.string('kind', 10).notNullable(); // question (staff) | reply (client)
    t.text('body').notNullable();
    t.string('created_at', TS).notNullable();
    t.index(['request_id', 'created_at']);
  });

  await knex.schema.createTable('audit_log', (t) => {
    t.increments('id').primary();
    t.string('at', TS).notNullable();
    t.integer('actor_user_id').nullable().references('id').inTable('users');
    t.string('action', 60).notNullable();
    t.integer('request_id').nullable().references('id').inTable('requests').onDelete('SET NULL');
    t.text('details').nullable();
    t.string('ip', 64).nullable();
    t.index(['request_id', 'at']);
    t.index(['at']);
  });

  await knex.schema.createTable('sessions', (t) => {
    t.increments('id').primary();
    t.string('token_hash', 64).notNullable().unique();
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('created_at', TS).notNullable();
    t.string('last_seen_at', TS).notNullable();
    t.string('expires_at', TS).notNullable();
    t.index(['user_id']);
  });

  await knex.schema.createTable('one_time_codes', (t) => {
    t.increments('id').primary();
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('purpose', 12).notNullable(); // login | register | reset | reset_grant
    t.string('code_hash', 128).notNullable();
    t.string('created_at', TS).notNullable();
    t.string('expires_at', TS).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('consumed_at', TS).nullable();
    t.index(['user_id', 'purpose']);
  });

  await knex.schema.createTable('rate_limits', (t) => {
    t.string('key', 200).notNullable();
    t.string('window_start', TS).notNullable();
    t.integer('count').notNullable().defaultTo(0);
    t.primary(['key', 'window_start']);
  });

  await knex.schema.createTable('control_number_counters', (t) => {
    t.integer('year').primary();
    t.integer('last_value').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'control_number_counters', 'rate_limits', 'one_time_codes', 'sessions', 'audit_log', 'request_messages',
    'analyses', 'samples', 'request_tests', 'requests', 'clients', 'users',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
