// Pages that end before the recent work (services/readCache.ts pageKinds, the ':earlier' versions of
// db/changeVersions.ts): a work queue's page in the oldest-first order whose last row was submitted
// before the window of recent work is kept while the day's writes land on recent requests, and is
// computed again as soon as an earlier request changes. Whatever the writes, every answer equals
// the obvious SQL over the requests as committed.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../fixtures/requests.js';
import { EARLIER_AFTER_DAYS, EARLIER_WINDOWS } from '../../server/db/changeVersions.js';
import { createDb, type Db } from '../../server/db/knex.js';
import type { QueueRow } from '../../server/domain/queue.js';
import type { RequestStatus } from '../../server/domain/requestStatus.js';
import type { HttpClient, HttpResponse } from '../helpers/httpClient.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { databaseKind } from '../helpers/testDatabase.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A submission `days` before now, on the database's clock (the real one, which the triggers read). */
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();
const LONG_AGO = EARLIER_AFTER_DAYS + 30;

const rowsOf = (res: HttpResponse) => (res.body as QueueRow[]).map((r) => [r.requestId, r.companyName]);

describe(`pages that end before the recent work (${databaseKind()})`, () => {
  let app: TestApp;
  /** Another process's connection: its commits reach the server only through the database. */
  let other: Db;
  let staff: HttpClient;
  let clientId: number;

  beforeAll(async () => {
    app = await startTestApp();
    other = app.config.database.client === 'sqlite3' ? createDb(app.config.database) : app.db;
    staff = (await app.signedIn('staff')).http;
    clientId = (await app.signedIn('client')).user.id;
  });

  afterAll(async () => {
    if (other !== app.db) await other.destroy();
    await app.close();
  });

  /** The request queries a call makes on the server's connection (none when answered from memory). */
  async function requestQueriesOf(work: () => Promise<unknown>): Promise<string[]> {
    const seen: string[] = [];
    const onQuery = (q: { sql: string }) => void (/from [`"]requests[`"]/.test(q.sql) && seen.push(q.sql));
    app.db.on('query', onQuery);
    try {
      await work();
    } finally {
      app.db.off('query', onQuery);
    }
    return seen;
  }

  const add = (days: number, status: RequestStatus = 'PENDING_REVIEW') =>
    insertRequests(other, [{ clientUserId: clientId, tests: ['eColi'], status, submissionDate: daysAgo(days) }]).then(([r]) => r!.requestId);

  it('keeps the first page while recent requests arrive and change, and computes it again when an earlier one changes', async () => {
    const earlier = [];
    for (let i = 0; i < 4; i += 1) earlier.push(await add(LONG_AGO - i));
    const first = await staff.get('/requests/queue/pending?limit=3');
    expect(rowsOf(first).map(([id]) => id)).toEqual(earlier.slice(0, 3));
    expect(first.headers.get('Link')).toContain('rel="next"');

    // The day's work: a submission today, and a recent request approved and given a new lot.
    const recent = await add(1);
    await other('requests').where({ id: recent }).update({ lot_batch_no: 'LOT-TODAY' });
    await add(0);
    const kept = await requestQueriesOf(async () => expect((await staff.get('/requests/queue/pending?limit=3')).body).toEqual(first.body));
    expect(kept).toEqual([]);

    // An earlier request off the page changes: computed again, the same rows.
    await other('requests').where({ id: earlier[3] }).update({ company_name: 'Renamed Meats' });
    const again = await requestQueriesOf(async () => expect((await staff.get('/requests/queue/pending?limit=3')).body).toEqual(first.body));
    expect(again).not.toEqual([]);

    // An earlier request on the page leaves it.
    await other('requests').where({ id: earlier[0] }).update({ status: 'REJECTED', rejected_at: daysAgo(0) });
    expect(rowsOf(await staff.get('/requests/queue/pending?limit=3')).map(([id]) => id)).toEqual(earlier.slice(1, 4));
  });

  it("keeps a page that ends before last year's work while requests of the last months change", async () => {
    // The oldest pending requests, and the next page's first, were submitted about two years ago.
    const old = [await add(730), await add(729), await add(700)];
    const months = await add(200);
    const first = await staff.get('/requests/queue/pending?limit=2');
    expect(rowsOf(first).map(([id]) => id)).toEqual(old.slice(0, 2));
    await other('requests').where({ id: months }).update({ lot_batch_no: 'LOT-MONTHS' });
    expect(await requestQueriesOf(async () => expect((await staff.get('/requests/queue/pending?limit=2')).body).toEqual(first.body))).toEqual([]);
    // A request of two years ago changes: computed again.
    await other('requests').where({ id: old[1] }).update({ company_name: 'Older Meats' });
    expect(rowsOf(await staff.get('/requests/queue/pending?limit=2'))).toEqual([[old[0], first.body[0].companyName], [old[1], 'Older Meats']]);
    await other('requests').whereIn('id', [...old, months]).update({ status: 'REJECTED', rejected_at: daysAgo(0) });
  });

  it('computes a page again on every change of its statuses when it reaches into the recent work', async () => {
    const all = rowsOf(await staff.get('/requests/queue/pending?limit=200'));
    const recent = await add(0);
    // No next page: a new request, however recent, is added to it.
    expect(rowsOf(await staff.get('/requests/queue/pending?limit=200')).map(([id]) => id)).toEqual([...all.map(([id]) => id), recent]);
  });

  it('drops the link to the next page when the only requests after the page are recent ones that leave', async () => {
    const shown = rowsOf(await staff.get('/requests/queue/for-release?limit=200'));
    const earlier = await add(LONG_AGO, 'FOR_RELEASE');
    const recent = await add(0, 'FOR_RELEASE');
    const limit = shown.length + 1;
    const before = await staff.get(`/requests/queue/for-release?limit=${limit}`);
    expect(rowsOf(before).map(([id]) => id)).toContain(earlier);
    expect(before.headers.get('Link')).toContain('rel="next"');
    await other('requests').where({ id: recent }).update({ status: 'RELEASED' });
    const after = await staff.get(`/requests/queue/for-release?limit=${limit}`);
    expect(after.body).toEqual(before.body);
    expect(after.headers.get('Link')).toBeNull();
  });

  it('answers every page as the obvious SQL over the committed requests, whatever is written between calls', async () => {
    const STATUSES: RequestStatus[] = ['PENDING_REVIEW', 'FOR_RELEASE', 'REJECTED'];
    // Ages on either side of each window's edge, not on it (the triggers and the pages reckon days
    // a moment apart).
    const edges = [0, ...EARLIER_WINDOWS.map((w) => w.days)];
    const age = fc.oneof(...edges.map((edge, i) => fc.integer({ min: i === 0 ? 0 : edge + 2, max: (edges[i + 1] ?? edge + 60) - 2 })));
    const write = fc.oneof(
      fc.record({ kind: fc.constant('submit' as const), days: age, status: fc.constantFrom<RequestStatus>('PENDING_REVIEW', 'FOR_RELEASE') }),
      fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), status: fc.constantFrom(...STATUSES) }),
      fc.record({ kind: fc.constant('rename' as const), pick: fc.nat(), name: fc.constantFrom('North Meats', 'South Meats', 'East Meats') }),
    );
    const expected = async (status: RequestStatus, limit: number) => {
      const rows: { id: number; company_name: string }[] = await other('requests').where({ status }).orderBy([{ column: 'submission_date' }, { column: 'id' }]).limit(limit + 1).select('id', 'company_name');
      return { rows: rows.slice(0, limit).map((r) => [Number(r.id), r.company_name]), more: rows.length > limit };
    };
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 8 }), fc.constantFrom(1, 2, 5), async (writes, limit) => {
        for (const w of writes) {
          const ids = (await other('requests').whereIn('status', STATUSES).pluck('id')).map(Number);
          if (w.kind === 'submit') await add(w.days, w.status);
          else if (w.kind === 'move') await other('requests').where({ id: ids[w.pick % ids.length] }).update({ status: w.status });
          else await other('requests').where({ id: ids[w.pick % ids.length] }).update({ company_name: w.name });
          for (const [list, status] of [['pending', 'PENDING_REVIEW'], ['for-release', 'FOR_RELEASE']] as const) {
            const res = await staff.get(`/requests/queue/${list}?limit=${limit}`);
            const want = await expected(status, limit);
            expect(rowsOf(res)).toEqual(want.rows);
            expect(res.headers.get('Link')?.includes('rel="next"') ?? false).toBe(want.more);
          }
        }
      }),
      { numRuns: 25 },
    );
  });
});
