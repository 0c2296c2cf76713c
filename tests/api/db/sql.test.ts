// The dialect helpers of server/db/sql.ts on the real database: what a service gets back is the same
// on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inChunks, insertReturningId, insertReturningIds, lockForUpdate } from '../../../server/db/sql.js';
import { inTransaction } from '../../../server/db/transaction.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

describe(`database helpers (${databaseKind()})`, () => {
  let app: TestApp;
  let clientId: number;
  beforeAll(async () => {
    app = await startTestApp();
    clientId = (await app.createUser('client')).id;
  });
  afterAll(() => app?.close());

  const request = (n: number) => ({
    client_user_id: clientId,
    status: 'PENDING_REVIEW',
    representative_name: `Rep ${n}`,
    contact_number: '+63912-345-6789',
    email_address: 'rep@example.com',
    company_name: 'Acme Meats',
    client_classification: 'Meat Processor',
    testing_purpose: 'Monitoring',
    sample_category: 'Raw',
    estimated_fee: 0,
    due_date: '2026-03-10',
    submission_date: '2026-03-02T08:00:00.000Z',
    created_at: '2026-03-02T08:00:00.000Z',
    updated_at: '2026-03-02T08:00:00.000Z',
  });

  it('answers the new ids of inserted rows as numbers, in order, across chunks', async () => {
    const one = await insertReturningId(app.db, 'requests', request(0));
    const many = await insertReturningIds(app.db, 'requests', [1, 2, 3, 4, 5].map(request), 2);
    expect(typeof one).toBe('number');
    expect(many).toHaveLength(5);
    expect(many.every((id) => typeof id === 'number' && id > one)).toBe(true);
    const stored = await app.db('requests').whereIn('id', many).orderBy('id').pluck('representative_name');
    expect(stored).toEqual(['Rep 1', 'Rep 2', 'Rep 3', 'Rep 4', 'Rep 5']);
    expect([...many].sort((a, b) => a - b)).toEqual(many);
  });

  it('runs a whereIn of any length in chunks and joins the answers in order', async () => {
    const ids = await insertReturningIds(app.db, 'requests', [6, 7, 8, 9, 10, 11, 12].map(request));
    const sizes: number[] = [];
    const names = await inChunks<number, string>(
      ids,
      async (chunk) => {
        sizes.push(chunk.length);
        return app.db('requests').whereIn('id', chunk).orderBy('id').pluck('representative_name');
      },
      3,
    );
    expect(sizes).toEqual([3, 3, 1]);
    expect(names).toEqual(['Rep 6', 'Rep 7', 'Rep 8', 'Rep 9', 'Rep 10', 'Rep 11', 'Rep 12']);
  });

  it('reads rows for update inside a transaction on either database', async () => {
    const id = await insertReturningId(app.db, 'requests', request(13));
    const rows = await inTransaction(app.db, (trx) => lockForUpdate(trx, trx('requests').where('id', id).select('id', 'status')));
    expect(rows).toEqual([{ id, status: 'PENDING_REVIEW' }]);
    const sql = lockForUpdate(app.db, app.db('requests').where('id', id)).toString();
    expect(sql.toLowerCase().includes('for update')).toBe(app.dbKind === 'postgres');
  });

  if (databaseKind() === 'postgres') {
    it('sends a repeated read as a prepared statement of its connection', async () => {
      const prepared = await inTransaction(app.db, async (trx) => {
        for (let i = 0; i < 2; i += 1) await trx('requests').where('status', 'FOR_RELEASE').count({ n: '*' });
        return (await trx.raw('select statement from pg_prepared_statements')).rows.map((r: { statement: string }) => r.statement);
      });
      expect(prepared.filter((sql: string) => /count\(\*\).*"requests".*"status" = \$1/.test(sql))).toHaveLength(1);
    });
  }
});
