import type { Knex } from 'knex';
import { isTransientConflict } from './errors.js';

/**
 * Runs `work` in a transaction, reusing `db` when it already is one, and retries a few times when the
 * database reports a transient conflict (SQLite busy, PostgreSQL deadlock or serialization failure).
 */
export async function inTransaction<T>(db: Knex | Knex.Transaction, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  if ((db as Knex.Transaction).isTransaction) return work(db as Knex.Transaction);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await (db as Knex).transaction(work);
    } catch (err) {
      if (attempt >= 5 || !isTransientConflict(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
  }
}
