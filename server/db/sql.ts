// SQL that SQLite and PostgreSQL spell differently, in one place.
import type { Knex } from 'knex';
import { isPostgres } from './knex.js';

/** The values of `column` in a group joined with commas (in no particular order), e.g. a request's test codes. */
export function joinedValues(db: Knex | Knex.Transaction, column: string): Knex.Raw {
  return db.raw(isPostgres(db as Knex) ? "string_agg(??, ',')" : "group_concat(??, ',')", [column]);
}
