// knex's SQLite client class, which the package does not type (server/db/knex.ts extends it).
declare module 'knex/lib/dialects/sqlite3/index.js' {
  import type { Knex } from 'knex';

  class ClientSqlite3 extends Knex.Client {
    transaction(...args: unknown[]): Knex.Transaction & { begin(conn: unknown): Promise<unknown>; query(conn: unknown, sql: string): Promise<unknown> };
  }
  export default ClientSqlite3;
}
