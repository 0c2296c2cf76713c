// Control numbers (DESIGN.md section 5, approve): the year's next, from one atomic upsert on the
// year's counter row, so concurrent approvals (even on several instances sharing PostgreSQL) queue
// on that row and get consecutive numbers, and a rolled-back approval gives its number back.
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { formatControlNumber } from '../domain/requestShape.js';
import { isPostgres } from './knex.js';
import { insertsFilledFrom, returnedNumber, type Statement } from './sql.js';

/** The year's counter row, taken: inserted at 1, or moved on by one and locked until the commit. */
const takeNumber = (trx: Knex | Knex.Transaction, year: number) =>
  trx('control_number_counters')
    .insert({ year, last_value: 1 })
    .onConflict('year')
    .merge({ last_value: trx.raw('?? + 1', ['control_number_counters.last_value']) })
    .returning('last_value');

// formatControlNumber in SQL, of the number taken as `n`: the year, a dash and at least four digits.
const CONTROL_NUMBER_SQL = "? || '-' || lpad(n.last_value::text, greatest(4, length(n.last_value::text)), '0')";

/**
 * Runs `move` (an UPDATE of one request) with `control_number` set to the next number of `year`,
 * in the caller's transaction; answers the rows it moved and that number. SQLite's way, one writer
 * at a time: PostgreSQL moves the request with the number in one statement (moveWithNextNumberAtOnce).
 */
export async function updateWithNextNumber(
  trx: Knex.Transaction,
  move: Knex.QueryBuilder,
  values: Record<string, unknown>,
  year: number,
): Promise<{ moved: number; controlNumber?: string }> {
  const [row] = await takeNumber(trx, year);
  const controlNumber = formatControlNumber(year, returnedNumber(row, 'last_value'));
  return { moved: await move.update({ ...values, control_number: controlNumber }), controlNumber };
}

/** Stands for the control number in the rows written with the move that takes it (moveWithNextNumberAtOnce). */
export const CONTROL_NUMBER_MARK = `~control-number-${randomBytes(8).toString('hex')}~`;

/**
 * Whether the database takes the number, moves the request and writes the rest as one statement
 * (PostgreSQL: moveWithNextNumberAtOnce). SQLite, one writer at a time, keeps its transaction.
 */
export const takesNumbersAtOnce = (db: Knex): boolean => isPostgres(db);

/**
 * PostgreSQL: one statement, committing itself, that takes the year's next number, runs `move` (a
 * guarded UPDATE of one request) with `values` and that number, runs `statements` (none with a WITH
 * of its own: they become clauses of this one), and inserts `rows` with CONTROL_NUMBER_MARK in
 * their values replaced by the number; answers the number.
 * Approvals everywhere wait for the counter row only while this statement runs and commits, never
 * for a round trip to a busy server, which was most of that wait (docs/labctl.md, Probes of 27
 * November). When the move finds the request changed, the statement fails on purpose (a division by
 * zero), so nothing is written and the number is not taken: the caller reads the request again.
 */
export async function moveWithNextNumberAtOnce(
  db: Knex,
  move: Knex.QueryBuilder,
  values: Record<string, unknown>,
  year: number,
  statements: readonly Statement[],
  rows: ReadonlyArray<{ table: string; row: Record<string, unknown> }>,
): Promise<string> {
  const moved = move.updateFrom('n').update({ ...values, control_number: db.raw(CONTROL_NUMBER_SQL, [String(year)]) }).returning('control_number');
  const clauses: Array<[string, Statement]> = [
    ['n', takeNumber(db, year)],
    ['moved', moved],
    ...statements.map((s, i): [string, Statement] => [`w${i}`, s]),
    ...insertsFilledFrom(db, 'moved', 'control_number', CONTROL_NUMBER_MARK, rows).map((s, i): [string, Statement] => [`r${i}`, s]),
  ];
  const compiled = clauses.map(([name, s]) => ({ name, ...(s.toSQL() as Knex.Sql) }));
  const result = await db.raw(
    `with ${compiled.map((c) => `${c.name} as (${c.sql})`).join(', ')} select (select control_number from moved) as control_number, 1 / (select count(*) from moved) as moved`,
    compiled.flatMap((c) => c.bindings),
  );
  return result.rows[0].control_number;
}
