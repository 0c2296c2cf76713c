// A request's conformity (issue 26): the worst decision of its analyses, kept as a rank in its
// progress rows (requestProgress.ts) in the transaction of every write that changes a decision, so a
// list reads it with the row it already joins, never by aggregating analyses per row.
import type { Knex } from 'knex';
import { OUTCOMES, type Outcome } from '../domain/specifications.js';

// By severity: a list shows the worst decision of a request.
const RANK: Record<Outcome, number> = { conforms: 0, inconclusive: 1, does_not_conform: 2 };
const BY_RANK = new Map(OUTCOMES.map((o) => [RANK[o], o]));

/** The rank of the worst of `outcomes` (null: nothing judged). */
export function worstRank(outcomes: Iterable<Outcome | null | undefined>): number | null {
  let worst: number | null = null;
  for (const outcome of outcomes) if (outcome) worst = Math.max(worst ?? 0, RANK[outcome]);
  return worst;
}

/** The outcome a conformity_rank stands for (null: nothing judged). */
export function conformityOf(rank: unknown): Outcome | null {
  return rank == null ? null : (BY_RANK.get(Number(rank)) ?? null);
}

/** The conformity of one request, from its progress row of every analysis. */
export async function requestConformity(db: Knex | Knex.Transaction, requestId: number): Promise<Outcome | null> {
  const row = await db('request_progress').where({ request_id: requestId, scope: 'all' }).first('conformity_rank');
  return conformityOf(row?.conformity_rank);
}
