// The mail outbox (DESIGN.md section 8): every mail is a row written in the transaction of the change
// that causes it, and a worker in `labctl serve` sends it. Scheduling columns are epoch milliseconds
// so "due" and "lease expired" compare as numbers on both databases.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('outbox', (t) => {
    t.increments('id').primary();
    t.string('recipient', 254).notNullable();
    t.string('subject', 300).notNullable();
    t.text('text_body').notNullable();
    t.text('html_body').notNullable();
    t.string('demo_hint', 100).nullable();
    // pending (waiting or being sent), sent, failed (gave up; `labctl mail retry` puts it back)
    t.string('state', 10).notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.bigInteger('next_attempt_ms').notNullable();
    t.string('claimed_by', 80).nullable();
    t.bigInteger('claimed_until_ms').notNullable().defaultTo(0);
    t.text('last_error').nullable();
    // The request and user a client mail is about: once sent, the mail is audited on the request's
    // timeline ('mail.sent'). Null for account mail (codes).
    t.integer('request_id').nullable();
    t.integer('actor_user_id').nullable();
    t.string('created_at', 30).notNullable();
    t.string('sent_at', 30).nullable();
    t.index(['state', 'next_attempt_ms']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('outbox');
}
