// 005 made audit_log append-only with row triggers, which PostgreSQL's TRUNCATE does not fire: a
// statement trigger refuses it too, so no statement empties the audit trail (21 CFR 11.10(e)).
import type { Knex } from 'knex';
import { allowTruncate, refuseTruncate } from '../appendOnly.js';

export async function up(knex: Knex): Promise<void> {
  await refuseTruncate(knex, 'audit_log');
}

export async function down(knex: Knex): Promise<void> {
  await allowTruncate(knex, 'audit_log');
}
