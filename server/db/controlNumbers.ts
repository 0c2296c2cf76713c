// Control numbers (DESIGN.md section 5, approve): the year's next, from one atomic upsert on the
// year's counter row, so concurrent approvals (even on several instances sharing PostgreSQL) queue
// on that row and get consecutive numbers, and a rolled-back approval gives its number back.
import type { Knex } from 'knex';
import { formatControlNumber } from '../domain/requestShape.js';
import { isPostgres } from './knex.js';
import { returnedNumber } from './sql.js';

/** The year's counter row, taken: inserted at 1, or moved on by one and locked until the commit. */
const takeNumber = (trx: Knex.Transaction, year: number) =>
  trx('control_number_counters')
    .insert({ year, last_value: 1 })
    .onConflict('year')
    .merge({ last_value: trx.raw('?? + 1', ['control_number_counters.last_value']) })
    .returning('last_value');

// formatControlNumber in SQL, of the number taken as `n`: the year, a dash and at least four digits.
const CONTROL_NUMBER_SQL = "? || '-' || lpad(n.last_value::text, greatest(4, length(n.last_value::text)), '0')";

/**
 * Runs `move` (an UPDATE of one request) with `control_number` set to the next number of `year`;
 * answers the rows it moved and that number. On PostgreSQL the number is taken in the same
 * statement: approvals everywhere wait for the counter row from there to their commit, so each
 * round trip in between is time all of them wait.
 */
export async function updateWithNextNumber(
  trx: Knex.Transaction,
  move: Knex.QueryBuilder,
  values: Record<string, unknown>,
  year: number,
): Promise<{ moved: number; controlNumber?: string }> {
  if (!isPostgres(trx)) {
    const [row] = await takeNumber(trx, year);
    const controlNumber = formatControlNumber(year, returnedNumber(row, 'last_value'));
    return { moved: await move.update({ ...values, control_number: controlNumber }), controlNumber };
  }
  const rows: Array<{ control_number: string }> = await move
    .with('n', takeNumber(trx, year))
    .updateFrom('n')
    .update({ ...values, control_number: trx.raw(CONTROL_NUMBER_SQL, [String(year)]) })
    .returning('control_number');
  return { moved: rows.length, controlNumber: rows[0]?.control_number };
}
