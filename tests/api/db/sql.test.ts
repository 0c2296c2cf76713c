// The dialect helpers of server/db/sql.ts on the real database: what a service gets back is the same
// on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawnId, inChunks, insertReturningId, insertReturningIds, lockForUpdate, runTogether, type Statement } from '../../../server/db/sql.js';
import { insertWithRows, inTransaction } from '../../../server/db/transaction.js';
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

  /** The statements `work` sends that write the request's tests, samples or audit entries (not the app's own, such as the outbox worker's). */
  async function statementsOf<T>(work: () => Promise<T>): Promise<{ value: T; statements: string[] }> {
    const statements: string[] = [];
    const listener = (q: { sql: string }) => {
      if (/^\s*(with|insert)\b/i.test(q.sql) && /request_tests|samples|audit_log/.test(q.sql)) statements.push(q.sql);
    };
    app.db.on('query', listener);
    try {
      return { value: await work(), statements };
    } finally {
      app.db.removeListener('query', listener);
    }
  }

  it('runs writes together: every one stored, the last one\'s rows answered, one statement on PostgreSQL', async () => {
    const id = await insertReturningId(app.db, 'requests', request(14));
    const { value: samples, statements } = await statementsOf(() =>
      inTransaction(app.db, (trx) =>
        runTogether<{ id: number; position: number }>(trx, [
          trx('request_tests').insert([{ request_id: id, test_code: 'eColi' }, { request_id: id, test_code: 'salmonellaSp' }]),
          trx('audit_log').insert({ at: '2026-03-02T08:00:00.000Z', actor_user_id: clientId, action: 'request.submit', request_id: id }),
          trx('samples').insert([1, 2].map((position) => ({ request_id: id, position, sample_type_description: `Loin ${position}` }))).returning(['id', 'position']),
        ]),
      ),
    );
    expect(samples.map((s) => s.position).sort()).toEqual([1, 2]);
    expect(await app.db('samples').where('request_id', id).orderBy('position').pluck('id')).toEqual(samples.sort((a, b) => a.position - b.position).map((s) => s.id));
    expect(await app.db('request_tests').where('request_id', id).orderBy('test_code').pluck('test_code')).toEqual(['eColi', 'salmonellaSp']);
    expect(await app.db('audit_log').where({ request_id: id, action: 'request.submit' }).pluck('actor_user_id')).toEqual([clientId]);
    expect(statements).toHaveLength(app.dbKind === 'postgres' ? 1 : 3);
  });

  it('stores none of the writes run together when one of them fails', async () => {
    const id = await insertReturningId(app.db, 'requests', request(15));
    const together = inTransaction(app.db, (trx) =>
      runTogether(trx, [
        trx('request_tests').insert({ request_id: id, test_code: 'eColi' }),
        // No such request: the foreign key refuses the sample.
        trx('samples').insert({ request_id: id + 1_000_000, position: 1, sample_type_description: 'Loin' }),
      ]),
    );
    await expect(together).rejects.toThrow(/foreign key/i);
    expect(await app.db('request_tests').where('request_id', id).pluck('test_code')).toEqual([]);
  });

  it('runs writes together outside a transaction all or nothing, a stored WITH statement included', async () => {
    const id = await insertReturningId(app.db, 'requests', request(16));
    const failing = (first: Statement) =>
      runTogether(app.db, [first, app.db('samples').insert({ request_id: id + 1_000_000, position: 1, sample_type_description: 'Loin' })]);
    await expect(failing(app.db('request_tests').insert({ request_id: id, test_code: 'eColi' }))).rejects.toThrow(/foreign key/i);
    // A statement with a WITH of its own cannot be a clause: the writes run in order, in a transaction.
    const withClause = app.db.raw("with t(code) as (select 'eColi') insert into request_tests (request_id, test_code) select ?, code from t", [id]);
    await expect(failing(withClause)).rejects.toThrow(/foreign key/i);
    expect(await app.db('request_tests').where('request_id', id).pluck('test_code')).toEqual([]);

    const { value: samples } = await statementsOf(() =>
      runTogether<{ position: number }>(app.db, [withClause, app.db('samples').insert({ request_id: id, position: 1, sample_type_description: 'Loin' }).returning(['position'])]),
    );
    expect(samples.map((s) => s.position)).toEqual([1]);
    expect(await app.db('request_tests').where('request_id', id).pluck('test_code')).toEqual(['eColi']);
  });

  it('inserts a row with the rows that need its id: one statement on PostgreSQL, with the id drawn by a read before', async () => {
    const [drawn] = await app.db('users').where('id', clientId).select(...[drawnId(app.db, 'requests')].filter((d) => d !== undefined), 'id');
    const drawnIdValue = drawn.drawn_id === undefined ? undefined : Number(drawn.drawn_id);
    expect(drawnIdValue === undefined).toBe(app.dbKind === 'sqlite');
    const { value, statements } = await statementsOf(() =>
      insertWithRows<{ position: number }>(app.db, 'requests', request(17), drawnIdValue, (db, requestId) => [
        db('request_tests').insert({ request_id: requestId, test_code: 'eColi' }),
        db('samples').insert({ request_id: requestId, position: 1, sample_type_description: 'Loin' }).returning(['position']),
      ]),
    );
    if (drawnIdValue !== undefined) expect(value.id).toBe(drawnIdValue);
    expect(value.rows).toEqual([{ position: 1 }]);
    expect(await app.db('requests').where('id', value.id).pluck('representative_name')).toEqual(['Rep 17']);
    expect(await app.db('request_tests').where('request_id', value.id).pluck('test_code')).toEqual(['eColi']);
    // The statements writing its tests or samples: the request's own insert with them on PostgreSQL.
    expect(statements).toHaveLength(app.dbKind === 'postgres' ? 1 : 2);
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
