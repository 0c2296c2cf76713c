// A request's conformity (issue 26): the worst decision of its analyses, aggregated by the database
// in the query of a list (one correlated subquery per row, on the analyses' request_id index).
import type { Knex } from 'knex';
import { OUTCOMES, type Outcome } from '../domain/specifications.js';

// OUTCOMES in order of severity: conforms, does_not_conform, inconclusive -> ranks 0, 2, 1.
const RANK: Record<Outcome, number> = { conforms: 0, inconclusive: 1, does_not_conform: 2 };
const BY_RANK = new Map(OUTCOMES.map((o) => [RANK[o], o]));

/** The column `conformity_rank` of the request whose id is `requestIdColumn` (e.g. 'r.id'). */
export function conformityColumn(db: Knex, requestIdColumn: string): Knex.Raw {
  const cases = OUTCOMES.map((o) => `when '${o}' then ${RANK[o]}`).join(' ');
  return db.raw(`(select max(case a.decision_outcome ${cases} end) from analyses a where a.request_id = ??) as conformity_rank`, [requestIdColumn]);
}

/** The outcome a conformity_rank stands for (null: nothing judged). */
export function conformityOf(rank: unknown): Outcome | null {
  return rank == null ? null : (BY_RANK.get(Number(rank)) ?? null);
}

/** The conformity of one request. */
export async function requestConformity(db: Knex | Knex.Transaction, requestId: number): Promise<Outcome | null> {
  const row = await (db as Knex).select(conformityColumn(db as Knex, 'r.id')).from('requests as r').where('r.id', requestId).first();
  return conformityOf(row?.conformity_rank);
}
