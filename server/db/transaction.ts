import type { Knex } from 'knex';
import { isTransientConflict } from './errors.js';
import { isPostgres } from './knex.js';
import { insertReturningId, runTogether, type Statement } from './sql.js';

/**
 * Runs `work` in a transaction, reusing `db` when it already is one, and retries a few times when the
 * database reports a transient conflict (SQLite busy, PostgreSQL deadlock or serialization failure).
 */
export async function inTransaction<T>(db: Knex | Knex.Transaction, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  if ((db as Knex.Transaction).isTransaction) return work(db as Knex.Transaction);
  return retryingConflicts(() => (db as Knex).transaction(work));
}

/** Runs `write` (a transaction, or one statement committing itself) again a few times when the database reports a transient conflict. */
export async function retryingConflicts<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await write();
    } catch (err) {
      if (attempt >= 5 || !isTransientConflict(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
  }
}

interface Queued {
  work: (trx: Knex.Transaction) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const BATCH_MAX = 200;
/**
 * Work a batch may do before it commits and lets the calls waiting for the connection (SQLite has
 * one) have it: the writes not reached yet go first into the next batch.
 */
const BATCH_BUDGET_MS = 25;
const queues = new WeakMap<Knex, { items: Queued[]; draining: boolean }>();

/**
 * Runs `work` in a transaction shared with the other batched writes waiting at the same moment, each
 * in its own savepoint (one failing rolls back only itself). One commit, so one fsync with SQLite's
 * synchronous=FULL, covers the whole batch: throughput grows with concurrency instead of being one
 * commit per write. A write's promise settles only after its batch is committed.
 */
export function inBatchedTransaction<T>(db: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = { items: [], draining: false }));
  const q = queue;
  return new Promise<T>((resolve, reject) => {
    q.items.push({ work, resolve: resolve as (value: unknown) => void, reject });
    if (!q.draining) {
      q.draining = true;
      void drain(db, q);
    }
  });
}

/**
 * SQLite's driver is synchronous, so a batch runs without giving the event loop a turn: the writes
 * whose requests arrive meanwhile would each start a batch of one. Each batch therefore starts after
 * a turn of the event loop (setImmediate runs once the pending I/O is read), joined by every write
 * that arrived in it.
 */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

async function drain(db: Knex, queue: { items: Queued[]; draining: boolean }): Promise<void> {
  while ((await nextTurn(), queue.items.length > 0)) {
    let batch = queue.items.splice(0, BATCH_MAX);
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      await inTransaction(db, async (trx) => {
        outcomes.length = 0;
        const started = performance.now();
        for (const item of batch) {
          // The synchronous SQLite driver runs a batch without a turn of the event loop: give one
          // between writes, and stop at the budget so a long batch never holds up the other calls.
          if (outcomes.length > 0) {
            if (performance.now() - started > BATCH_BUDGET_MS) break;
            await nextTurn();
          }
          try {
            outcomes.push({ ok: true, value: await inSavepoint(trx, item.work) });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      for (const item of batch) item.reject(error);
      continue;
    }
    // The writes the budget left out run first in the next batch.
    queue.items.unshift(...batch.slice(outcomes.length));
    batch = batch.slice(0, outcomes.length);
    batch.forEach((item, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  }
  queue.draining = false;
}

/**
 * Runs `work` on `trx` inside a savepoint: when it fails, only its own writes are rolled back. Not
 * knex's nested transaction, which builds a whole knex instance (with every query method) for each
 * savepoint, and every write of a batch has one.
 */
async function inSavepoint<T>(trx: Knex.Transaction, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  await trx.raw('SAVEPOINT batched_write');
  try {
    const value = await work(trx);
    await trx.raw('RELEASE batched_write');
    return value;
  } catch (error) {
    await trx.raw('ROLLBACK TO batched_write');
    await trx.raw('RELEASE batched_write');
    throw error;
  }
}

/**
 * A short write that waits for nothing outside the database, in a transaction of its own or shared:
 * on SQLite (one connection, an fsync per commit) it shares a commit with the writes arriving at the
 * same moment (inBatchedTransaction); PostgreSQL runs such writes side by side on its pool, where a
 * batch would be one connection's statements in a row, holding their row locks until the last.
 */
export function inShortWrite<T>(db: Knex | Knex.Transaction, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  const shared = !(db as Knex.Transaction).isTransaction && !isPostgres(db);
  return shared ? inBatchedTransaction(db as Knex, work) : inTransaction(db, work);
}

/**
 * Inserts `row` into `table` together with `rowsOf(id)`, the statements that need its new id, all
 * or nothing, and answers its id and the rows the last of those returns. With `drawnId` (the id
 * drawn by an earlier read: sql.ts drawnId, PostgreSQL) the whole goes as one statement in
 * autocommit (runTogether); without it the row is inserted first for its id, in a short write with
 * the rest.
 */
export async function insertWithRows<Row>(
  db: Knex,
  table: string,
  row: Record<string, unknown>,
  drawnId: number | undefined,
  rowsOf: (db: Knex | Knex.Transaction, id: number) => Statement[],
): Promise<{ id: number; rows: Row[] }> {
  if (drawnId !== undefined) return { id: drawnId, rows: await runTogether<Row>(db, [db(table).insert({ id: drawnId, ...row }), ...rowsOf(db, drawnId)]) };
  return inShortWrite(db, async (trx) => {
    const id = await insertReturningId(trx, table, row);
    return { id, rows: await runTogether<Row>(trx, rowsOf(trx, id)) };
  });
}
