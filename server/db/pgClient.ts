// knex's PostgreSQL client, sending reads and writes as named prepared statements (node-postgres
// prepares a name once per connection, then only binds and executes it). PostgreSQL then parses a
// statement once per connection, not on every call, and after five runs plans it once too when the
// generic plan is as good: planning a work queue's page cost more than running it (2.2 ms against
// 1.7 ms), and each of a result save's seven statements paid parse and plan again.
// The name is the statement's text hashed, so one text always has one name. Texts vary with the
// number of values in a list (`in ($1, $2, ...)`, a batch insert's rows), so only the first
// MAX_PREPARED distinct texts are prepared, and each connection keeps at most that many; later ones
// run unnamed, as knex runs them. Schema changes and transaction control stay unnamed: they are not
// repeated, and a migration's statements would take the places of the screens' ones.
import { createHash } from 'node:crypto';
import ClientPg from 'knex/lib/dialects/postgres/index.js';

export const MAX_PREPARED = 300;

const PREPARED = /^\s*(select|insert|update|delete|with)\b/i;
const names = new Map<string, string>();

/** The prepared statement name of `sql`; undefined for a statement left unnamed. */
export function statementName(sql: string): string | undefined {
  const known = names.get(sql);
  if (known !== undefined || names.size >= MAX_PREPARED || !PREPARED.test(sql)) return known;
  const name = `lab_${createHash('sha1').update(sql).digest('base64url')}`;
  names.set(sql, name);
  return name;
}

interface QueryObject {
  sql?: string;
  options?: Record<string, unknown>;
}

export class PreparedPg extends ClientPg {
  _query(connection: unknown, obj: QueryObject): Promise<unknown> {
    const name = obj.sql ? statementName(obj.sql) : undefined;
    if (name) obj.options = { name, ...obj.options };
    return super._query(connection, obj);
  }
}
