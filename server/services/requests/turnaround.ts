// The turnaround dashboard's reads (issue 15): one aggregate query for the load per discipline and
// one list query for the open requests, ordered late first in the domain.
import type { Knex } from 'knex';
import { ANALYTES, FAMILIES } from '../../domain/catalog.js';
import { can, type Actor } from '../../domain/policies.js';
import type { RequestStatus } from '../../domain/requestStatus.js';
import { familiesOf } from '../../domain/requestShape.js';
import { ageInDays, compareUrgency, daysLate, disciplineLoads, OPEN_REQUEST_STATUSES, type Turnaround } from '../../domain/turnaround.js';
import { forbidden } from '../../errors.js';
import { joinedValues } from '../../db/sql.js';

/** SQL naming the family of `t.test_code`, from the catalog (constants, inlined and quoted by knex). */
function familyCase(db: Knex): string {
  const arms = FAMILIES.map((f) => {
    const codes = ANALYTES.filter((a) => a.family === f).map((a) => a.code);
    return db.raw(`WHEN t.test_code IN (${codes.map(() => '?').join(', ')}) THEN ?`, [...codes, f]).toQuery();
  });
  return `CASE ${arms.join(' ')} END`;
}

export async function turnaround(db: Knex, actor: Actor, today: string): Promise<Turnaround> {
  if (!can(actor, 'request:review')) throw forbidden();
  const family = familyCase(db);
  const [counts, rows] = await Promise.all([
    db('requests as r')
      .join('request_tests as t', 't.request_id', 'r.id')
      .whereIn('r.status', OPEN_REQUEST_STATUSES)
      .groupBy(db.raw(family))
      .select(
        db.raw(`${family} as family`),
        db.raw('count(distinct r.id) as open_count'),
        db.raw('count(distinct case when r.due_date < ? then r.id end) as late', [today]),
        db.raw('min(r.submission_date) as oldest'),
      ),
    db('requests as r')
      .whereIn('r.status', OPEN_REQUEST_STATUSES)
      .select('r.id', 'r.control_number', 'r.status', 'r.company_name', 'r.submission_date', 'r.due_date', db('request_tests as t').select(joinedValues(db, 't.test_code')).whereRaw('t.request_id = r.id').as('tests')),
  ]);
  const requests = rows
    .map((r) => ({
      requestId: Number(r.id),
      controlNumber: r.control_number,
      status: r.status as RequestStatus,
      companyName: r.company_name,
      submissionDate: r.submission_date,
      dueDate: r.due_date,
      families: familiesOf(String(r.tests ?? '').split(',')),
      ageDays: ageInDays(r.submission_date, today),
      daysLate: daysLate(r.due_date, today),
    }))
    .sort(compareUrgency);
  return {
    today,
    disciplines: disciplineLoads((counts as Array<{ family: string; open_count: number | string; late: number | string; oldest: string | null }>).map((c) => ({ family: String(c.family), open: Number(c.open_count), late: Number(c.late), oldest: c.oldest ?? null }))),
    requests,
  };
}
