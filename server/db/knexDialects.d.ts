// knex's better-sqlite3 client class, which the package does not type (server/db/sqliteClient.ts extends it).
declare module 'knex/lib/dialects/better-sqlite3/index.js' {
  import type { Knex } from 'knex';

  class ClientBetterSqlite3 extends Knex.Client {
    transaction(...args: unknown[]): Knex.Transaction & { begin(conn: unknown): Promise<unknown>; query(conn: unknown, sql: string): Promise<unknown> };
    _formatBindings(bindings: unknown[] | undefined): unknown[];
    /** True on the client of a transaction (a transaction begun on it is a savepoint). */
    transacting?: boolean;
  }
  export default ClientBetterSqlite3;
}

// knex's PostgreSQL client class (server/db/pgClient.ts extends it).
declare module 'knex/lib/dialects/postgres/index.js' {
  import type { Knex } from 'knex';

  class ClientPg extends Knex.Client {
    _query(connection: unknown, obj: unknown): Promise<unknown>;
  }
  export default ClientPg;
}
