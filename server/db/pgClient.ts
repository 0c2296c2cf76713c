// knex's PostgreSQL client, sending repeated reads and writes as named prepared statements
// (node-postgres prepares a name once per connection, then only binds and executes it). PostgreSQL
// then parses a statement once per connection, not on every call, and after five runs plans it once
// too when the generic plan is as good: planning a work queue's page can cost as much as running it,
// and each of a result save's seven statements paid parse and plan again.
// The name is the statement's text hashed, so one text always has one name. A text is prepared from
// its second run (a one-off, such as a migration's backfill, never is), and texts vary with the
// number of values in a list (`in ($1, $2, ...)`, a batch insert's rows), so each database handle
// prepares at most MAX_PREPARED texts and each of its connections keeps at most that many; later
// ones run unnamed, as knex runs them. Schema changes and transaction control always run unnamed.
import { createHash } from 'node:crypto';
import ClientPg from 'knex/lib/dialects/postgres/index.js';
import { LRUCache } from 'lru-cache';

export const MAX_PREPARED = 300;

const PREPARED = /^\s*(select|insert|update|delete|with)\b/i;

/** What one database handle has prepared, and how often it ran the texts it has not (yet). */
export interface StatementBudget {
  names: Map<string, string>;
  runs: LRUCache<string, number>;
}

export const newStatementBudget = (): StatementBudget => ({ names: new Map(), runs: new LRUCache({ max: 4 * MAX_PREPARED }) });

/** The prepared statement name of `sql` in `budget`; undefined for a statement run unnamed. */
export function statementName(budget: StatementBudget, sql: string): string | undefined {
  const known = budget.names.get(sql);
  if (known !== undefined || budget.names.size >= MAX_PREPARED || !PREPARED.test(sql)) return known;
  const runs = (budget.runs.get(sql) ?? 0) + 1;
  if (runs < 2) {
    budget.runs.set(sql, runs);
    return undefined;
  }
  budget.runs.delete(sql);
  const name = `lab_${createHash('sha1').update(sql).digest('base64url')}`;
  budget.names.set(sql, name);
  return name;
}

// By the handle's settings: knex makes a transaction's client from the class's prototype, with the
// same config object but none of the instance's own fields.
const budgets = new WeakMap<object, StatementBudget>();

interface QueryObject {
  sql?: string;
  options?: Record<string, unknown>;
}

export class PreparedPg extends ClientPg {
  _query(connection: unknown, obj: QueryObject): Promise<unknown> {
    if (obj.sql) {
      const config = (this as unknown as { config: object }).config;
      let budget = budgets.get(config);
      if (!budget) budgets.set(config, (budget = newStatementBudget()));
      const name = statementName(budget, obj.sql);
      if (name) obj.options = { name, ...obj.options };
    }
    return super._query(connection, obj);
  }
}
