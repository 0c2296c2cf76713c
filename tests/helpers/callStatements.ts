// The statements a call sends outside any transaction, besides those of the session's read and of
// the outbox worker, which may claim, send and mark mail meanwhile (the marking, with its
// 'mail.sent' audit entries, in a transaction of its own). For tests that count a write's round
// trips: a write that opened a transaction would leave none here.
import type { Knex } from 'knex';

interface Query {
  sql: string;
  __knexTxId?: string;
}

const ofWorker = (sql: string) => /\boutbox\b/.test(sql) && !/insert into "outbox"/.test(sql);

/** The SQL of the statements `db` sent while `work` ran, as said above. */
export async function callStatements(db: Knex, work: () => Promise<unknown>): Promise<string[]> {
  const statements: Query[] = [];
  const onQuery = (q: Query) => statements.push(q);
  db.on('query', onQuery);
  try {
    await work();
  } finally {
    db.removeListener('query', onQuery);
  }
  return statements.filter((q) => !q.__knexTxId && !/\bsessions\b/.test(q.sql) && !ofWorker(q.sql)).map((q) => q.sql);
}
