// Makes a table append-only in the database itself (21 CFR 11.10(e): an audit entry never obscures an
// earlier one): a trigger refuses every UPDATE and DELETE, whoever connects. Spelled per dialect here,
// so migrations stay free of dialect checks.
import type { Knex } from 'knex';
import { isPostgres } from './knex.js';

const triggerName = (table: string) => `${table}_append_only`;
const refusal = (table: string) => `${table} is append-only: its rows cannot be changed or deleted`;

export async function makeAppendOnly(knex: Knex, table: string): Promise<void> {
  const name = triggerName(table);
  if (isPostgres(knex)) {
    await knex.raw(`CREATE FUNCTION ??() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '${refusal(table)}'; END $$`, [name]);
    await knex.raw('CREATE TRIGGER ?? BEFORE UPDATE OR DELETE ON ?? FOR EACH ROW EXECUTE FUNCTION ??()', [name, table, name]);
    return;
  }
  for (const event of ['UPDATE', 'DELETE']) {
    await knex.raw(`CREATE TRIGGER ?? BEFORE ${event} ON ?? BEGIN SELECT RAISE(ABORT, '${refusal(table)}'); END`, [`${name}_${event.toLowerCase()}`, table]);
  }
}

export async function dropAppendOnly(knex: Knex, table: string): Promise<void> {
  const name = triggerName(table);
  if (isPostgres(knex)) {
    await knex.raw('DROP TRIGGER IF EXISTS ?? ON ??', [name, table]);
    await knex.raw('DROP FUNCTION IF EXISTS ??()', [name]);
    return;
  }
  for (const event of ['update', 'delete']) await knex.raw('DROP TRIGGER IF EXISTS ??', [`${name}_${event}`]);
}

/**
 * PostgreSQL's TRUNCATE empties a table without firing row triggers: a statement trigger refuses it.
 * Its own function, so either protection can be lifted without the other. SQLite has no TRUNCATE; its
 * `DELETE FROM` fires the delete trigger.
 */
export async function refuseTruncate(knex: Knex, table: string): Promise<void> {
  if (!isPostgres(knex)) return;
  const name = `${triggerName(table)}_truncate`;
  await knex.raw(`CREATE FUNCTION ??() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '${refusal(table)}'; END $$`, [name]);
  await knex.raw('CREATE TRIGGER ?? BEFORE TRUNCATE ON ?? FOR EACH STATEMENT EXECUTE FUNCTION ??()', [name, table, name]);
}

export async function allowTruncate(knex: Knex, table: string): Promise<void> {
  if (!isPostgres(knex)) return;
  const name = `${triggerName(table)}_truncate`;
  await knex.raw('DROP TRIGGER IF EXISTS ?? ON ??', [name, table]);
  await knex.raw('DROP FUNCTION IF EXISTS ??()', [name]);
}
