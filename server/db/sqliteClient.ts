// knex's client for SQLite through better-sqlite3, a synchronous driver: a statement runs on the
// calling thread without a round trip through libuv's thread pool, which made every statement cost
// a quarter millisecond of waiting (a submission is a dozen statements). Four changes to knex's own:
// transactions begin IMMEDIATE, statements are prepared once per connection, a writer that finds
// the file locked by another process waits for it without blocking the event loop, and a commit
// settles once its WAL is on disk, flushed in the thread pool (walSync.ts).
import type { Database, Statement } from 'better-sqlite3';
import ClientBetterSqlite3 from 'knex/lib/dialects/better-sqlite3/index.js';
import { syncWal } from './walSync.js';

/** How long SQLite itself spins on a locked file before answering SQLITE_BUSY: the event loop waits that long. */
export const SYNC_BUSY_MS = 20;
/** How long a statement waits in all for another process's write (labctl, a second server) before failing. */
const BUSY_DEADLINE_MS = 30_000;
const BUSY_PAUSE_MS = 25;
/** Distinct statements kept prepared per connection; knex writes a new text for each length of an IN list. */
const PREPARED_MAX = 500;

interface QueryObject {
  sql: string;
  bindings?: unknown[];
  response?: unknown;
  context?: { lastID: number | bigint; changes: number };
}

// Per connection, outside the client: knex's transaction clients are made from the class's prototype.
const preparedByConnection = new WeakMap<Database, Map<string, Statement>>();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const COMMIT = /^\s*(commit|end)\b/i;
const durable = (connection: Database) => !connection.memory && !connection.readonly;

/**
 * Per database file, the WAL flush begun by its latest COMMIT: what a transaction that committed
 * waits for before it settles (a flush begun by a later commit covers the earlier ones too).
 */
const flushOfFile = new Map<string, Promise<void>>();

/** Starts the flush of a COMMIT that just ran; the transaction awaits it once its connection is released. */
function flushCommit(file: string): void {
  const flush = syncWal(file);
  // Awaited by the transaction; a flush replaced before anyone awaited it must not go unhandled.
  flush.catch(() => undefined);
  flushOfFile.set(file, flush);
}
const isBusy = (err: unknown) => (err as { code?: string })?.code === 'SQLITE_BUSY';

/**
 * Transactions begin IMMEDIATE, taking the write lock first: a deferred transaction that read before
 * another process wrote cannot upgrade and fails at once with SQLITE_BUSY, while an immediate one
 * waits its turn. SQLite stays single-writer; scale-out is PostgreSQL.
 */
export class ImmediateSqlite3 extends ClientBetterSqlite3 {
  transaction(...args: unknown[]) {
    const trx = super.transaction(...args);
    trx.begin = (conn) => trx.query(conn, 'BEGIN IMMEDIATE;');
    if (!this.transacting) {
      // A transaction settles once its commit is on disk, but gives its connection (SQLite's one) back
      // as soon as the COMMIT ran: the next batch or read goes on while the WAL is flushed.
      const file = (this.connectionSettings as { filename: string }).filename;
      const settled = trx as unknown as { _promise: Promise<unknown> };
      settled._promise = settled._promise.then(async (value) => {
        await flushOfFile.get(file);
        return value;
      });
    }
    return trx;
  }

  async _query(connection: Database, obj: QueryObject): Promise<QueryObject> {
    if (!obj.sql) throw new Error('The query is empty');
    const statement = this.statementFor(connection, obj.sql);
    const bindings = this._formatBindings(obj.bindings);
    // A locked file answers SQLITE_BUSY before the statement did anything, so running it again is safe.
    for (const started = Date.now(); ; await sleep(BUSY_PAUSE_MS)) {
      try {
        if (statement.reader) {
          obj.response = statement.all(bindings);
        } else {
          const result = statement.run(bindings);
          obj.response = result;
          obj.context = { lastID: result.lastInsertRowid, changes: result.changes };
        }
        if (!connection.inTransaction && durable(connection)) {
          if (COMMIT.test(obj.sql)) flushCommit(connection.name);
          // A write outside a transaction committed itself: it settles once on disk.
          else if (!statement.readonly) await syncWal(connection.name);
        }
        return obj;
      } catch (err) {
        if (!isBusy(err) || Date.now() - started > BUSY_DEADLINE_MS) throw err;
      }
    }
  }

  private statementFor(connection: Database, sql: string): Statement {
    let cache = preparedByConnection.get(connection);
    if (!cache) preparedByConnection.set(connection, (cache = new Map()));
    let statement = cache.get(sql);
    if (statement) {
      cache.delete(sql); // re-inserted below: the Map's order is the least recently used first
    } else {
      statement = connection.prepare(sql);
      if (cache.size >= PREPARED_MAX) cache.delete(cache.keys().next().value!);
    }
    cache.set(sql, statement);
    return statement;
  }
}
