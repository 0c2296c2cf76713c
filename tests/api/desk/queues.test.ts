import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests, type RequestSeed } from '../../../fixtures/requests.js';
import { refreshProgress } from '../../../server/db/requestProgress.js';
import type { QueueRow } from '../../../server/domain/queue.js';
import type { HttpClient, HttpResponse } from '../../helpers/httpClient.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

const rowsOf = (res: HttpResponse) => res.body as QueueRow[];
const ids = (res: HttpResponse) => rowsOf(res).map((r) => r.requestId);
const nextLink = (res: HttpResponse) => /^<([^>]+)>; rel="next"$/.exec(res.headers.get('Link') ?? '')?.[1];

/** One discipline each, in turn: microbiology, molecular biology, chemistry. */
const TESTS = [['eColi'], ['dog'], ['betaLactams', 'chloramphenicol']];
/** Two requests per minute: every sort has ties on its key, which the id must break. */
const at = (i: number) => new Date(Date.UTC(2026, 0, 5, 8) + Math.floor(i / 2) * 60_000).toISOString();

describe(`keyset-paged work queues (${databaseKind()})`, () => {
  let app: TestApp;
  let staff: HttpClient;
  let microbio: HttpClient;
  let chem: HttpClient;
  let clientHttp: HttpClient;
  let clientId: number;
  let otherClient: HttpClient;
  let pending: number[];
  let forRelease: number[];
  let positiveId: number;
  let testing: number[];
  /** The microbiology request of the for-testing list whose results are all entered. */
  let microbioDone: number;
  /** Every query that reads the requests table, while `counting`. */
  let counted: string[] = [];
  let counting = false;

  /** Follows the Link rel="next" from `first` to the end, each page's rows in order. */
  async function walk(http: HttpClient, first: string): Promise<{ ids: number[]; pages: number }> {
    const seen: number[] = [];
    let next: string | undefined = first;
    let pages = 0;
    while (next) {
      const res: HttpResponse = await http.get(next);
      expect(res.status).toBe(200);
      seen.push(...ids(res));
      next = nextLink(res);
      pages += 1;
      expect(pages).toBeLessThan(50);
    }
    return { ids: seen, pages };
  }

  beforeAll(async () => {
    // Counts the SQL of computing each answer, so no answer comes from the read cache.
    app = await startTestApp({}, { readCache: false });
    staff = (await app.signedIn('staff')).http;
    microbio = (await app.signedIn('microbiotester')).http;
    chem = (await app.signedIn('chemtester')).http;
    const signedClient = await app.signedIn('client', { companyName: 'Acme 100% Pork' });
    clientHttp = signedClient.http;
    clientId = signedClient.user.id;
    otherClient = (await app.signedIn('client')).http;
    const other = await app.createUser('client', { companyName: 'Bayside Poultry' });
    const seeds = (status: RequestSeed['status'], n: number, offset = 0): RequestSeed[] =>
      Array.from({ length: n }, (_, i) => ({
        clientUserId: i % 2 === 0 ? clientId : other.id,
        tests: TESTS[i % 3],
        status,
        submissionDate: at(i + offset),
        samples: i % 4 === 0 ? ['Beef loin', 'Pork belly'] : ['Beef loin'],
      }));
    pending = (await insertRequests(app.db, seeds('PENDING_REVIEW', 23))).map((s) => s.requestId);
    // Lots to search for, and due dates that do not follow the submission order.
    for (const [i, id] of pending.entries()) {
      await app.db('requests').where('id', id).update({ lot_batch_no: `LOT-${i}`, due_date: `2026-02-${String(28 - (i % 7)).padStart(2, '0')}` });
    }
    forRelease = (await insertRequests(app.db, seeds('FOR_RELEASE', 6, 40))).map((s) => s.requestId);
    positiveId = forRelease[2];
    await app.db('analyses').where('request_id', positiveId).update({ remark: 'positive' });
    testing = (await insertRequests(app.db, seeds('FOR_TESTING', 9, 60))).map((s) => s.requestId);
    // Without samples there is nothing to enter yet: still outstanding, never finished.
    testing.push(...(await insertRequests(app.db, [{ clientUserId: other.id, tests: ['eColi'], status: 'FOR_TESTING', submissionDate: at(80), samples: [] }])).map((s) => s.requestId));
    microbioDone = testing[3];
    await app.db('analyses').where('request_id', microbioDone).update({ value: '10 cfu/g', remark: 'negative' });
    // A value without its + or -: still outstanding.
    await app.db('analyses').where('request_id', testing[0]).update({ value: '12' });
    // Written to the table directly, not through the results service: the queues' progress follows.
    await refreshProgress(app.db, [positiveId, microbioDone, testing[0]]);

    app.db.on('query', (q: { sql: string }) => {
      if (counting && /\brequests\b/.test(q.sql)) counted.push(q.sql);
    });
  });
  afterAll(() => app?.close());

  describe('pending', () => {
    it('pages the whole list oldest first, each request exactly once, across pages of 5', async () => {
      const walked = await walk(staff, '/requests/queue/pending?limit=5');
      expect(walked.ids).toEqual(pending);
      expect(walked.pages).toBe(5);
    });

    it('pages newest first and most urgent first (earliest due date, ties by id) with no duplicates or gaps', async () => {
      expect((await walk(staff, '/requests/queue/pending?limit=4&sort=newest')).ids).toEqual([...pending].reverse());
      const due = (i: number) => 28 - (i % 7);
      const urgent = pending.map((id, i) => ({ id, due: due(i) })).sort((a, b) => a.due - b.due || a.id - b.id).map((r) => r.id);
      expect((await walk(staff, '/requests/queue/pending?limit=3&sort=urgent')).ids).toEqual(urgent);
    });

    it('answers rows with what the screen shows', async () => {
      const [row] = rowsOf(await staff.get('/requests/queue/pending?limit=1'));
      expect(row).toEqual({
        requestId: pending[0],
        controlNumber: null,
        requestStatus: 'PENDING_REVIEW',
        companyName: 'Acme 100% Pork',
        clientClassification: 'Importer',
        purpose: 'Local_Trade',
        lotBatchNo: 'LOT-0',
        samples: 2,
        tests: ['eColi'],
        submissionDate: at(0),
        waitingSince: at(0),
        dueDate: '2026-02-28',
      });
    });

    it('reads each page with one query', async () => {
      const first = await staff.get('/requests/queue/pending?limit=5');
      counted = [];
      counting = true;
      await staff.get(nextLink(first)!);
      await staff.get('/requests/queue/for-testing?limit=5&state=all');
      await microbio.get('/requests/queue/for-release?limit=5');
      counting = false;
      expect(counted).toHaveLength(3);
    });

    it('searches control number, company and lot, case-insensitively, with % taken literally', async () => {
      expect(ids(await staff.get('/requests/queue/pending?q=lot-12'))).toEqual([pending[12]]);
      expect(ids(await staff.get('/requests/queue/pending?q=bayside&limit=200'))).toEqual(pending.filter((_, i) => i % 2 === 1));
      expect(ids(await staff.get('/requests/queue/pending?q=100%25&limit=200'))).toEqual(pending.filter((_, i) => i % 2 === 0));
      expect(ids(await staff.get('/requests/queue/pending?q=10%25'))).toEqual([]);
      const [approved] = rowsOf(await staff.get('/requests/queue/for-release?limit=1'));
      expect(ids(await staff.get(`/requests/queue/for-release?q=${approved.controlNumber}`))).toEqual([approved.requestId]);
    });

    it('filters by discipline, also while paging', async () => {
      const chemistry = pending.filter((_, i) => i % 3 === 2);
      expect((await walk(staff, '/requests/queue/pending?discipline=chem&limit=2')).ids).toEqual(chemistry);
    });

    it('exports the filtered list as CSV with formulas made inert', async () => {
      await app.db('requests').where('id', pending[1]).update({ lot_batch_no: '=HYPERLINK("x")' });
      const res = await staff.get('/requests/queue/pending?format=csv&q=bayside');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/csv');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="pending.csv"');
      const lines = res.text.trimEnd().split('\r\n');
      expect(lines[0]).toBe('Control number,Status,Company,Purpose,Lot,Samples,Tests,Submitted,Waiting since,Due date,Any positive,Released');
      expect(lines).toHaveLength(1 + 11);
      expect(lines[1]).toBe(`,PENDING_REVIEW,Bayside Poultry,Local_Trade,"'=HYPERLINK(""x"")",1,dog,${at(1)},${at(1)},2026-02-27,,`);
    });
  });

  describe('for release', () => {
    it('shows whether any result is positive, oldest first', async () => {
      const rows = rowsOf(await staff.get('/requests/queue/for-release'));
      expect(rows.map((r) => r.requestId)).toEqual(forRelease);
      expect(rows.map((r) => r.anyPositive)).toEqual(forRelease.map((id) => id === positiveId));
      expect(rows[0].controlNumber).toMatch(/^2026-\d{4}$/);
    });

    it('shows a tester the requests of its discipline only', async () => {
      expect(ids(await microbio.get('/requests/queue/for-release'))).toEqual(forRelease.filter((_, i) => i % 3 === 0));
    });
  });

  describe('for testing', () => {
    it('shows a tester its outstanding work only, with progress counted for its discipline', async () => {
      const rows = rowsOf(await microbio.get('/requests/queue/for-testing'));
      const mine = testing.filter((id, i) => (i % 3 === 0 || i === 9) && id !== microbioDone);
      expect(rows.map((r) => r.requestId)).toEqual(mine);
      // testing[0]: two samples, each with a value but no + or -.
      expect(rows[0].progress).toEqual({ entered: 0, total: 2 });
      expect(rows[0].waitingSince).toBe(at(60));
      expect(rows[0].sampleList!.map((x) => [x.position, x.sampleTypeDescription, x.lotBatchNo])).toEqual([[1, 'Beef loin', 'LOT-001'], [2, 'Pork belly', 'LOT-001']]);
      expect(rows[1].sampleList).toHaveLength(1);
    });

    it('shows the finished ones (entered, or already awaiting release) on asking, and both with state=all', async () => {
      const finished = rowsOf(await microbio.get('/requests/queue/for-testing?state=finished'));
      const releasable = forRelease.filter((_, i) => i % 3 === 0);
      expect(finished.map((r) => r.requestId)).toEqual([...releasable, microbioDone]);
      expect(finished.at(-1)!.progress).toEqual({ entered: 1, total: 1 });
      expect(ids(await microbio.get('/requests/queue/for-testing?state=all'))).toEqual([...releasable, ...testing.filter((_, i) => i % 3 === 0 || i === 9)]);
    });

    it('shows staff every discipline, and FOR_RELEASE requests among the finished', async () => {
      expect((await walk(staff, '/requests/queue/for-testing?limit=2')).ids).toEqual(testing.filter((id) => id !== microbioDone));
      const all = await walk(staff, '/requests/queue/for-testing?state=all&limit=4');
      expect(new Set(all.ids)).toEqual(new Set([...forRelease, ...testing]));
      expect(all.ids).toHaveLength(forRelease.length + testing.length);
      expect(ids(await staff.get('/requests/queue/for-testing?state=all&status=FOR_RELEASE'))).toEqual(forRelease);
    });
  });

  describe("the client's track list", () => {
    it('pages a client its own requests newest first, with status counts', async () => {
      const own = await app.db('requests').where('client_user_id', clientId).orderBy([{ column: 'submission_date', order: 'desc' }, { column: 'id', order: 'desc' }]).pluck('id');
      expect(own.length).toBeGreaterThan(10);
      expect((await walk(clientHttp, `/requests/queue/client/${clientId}?sort=newest&limit=4`)).ids).toEqual(own.map(Number));
      const counts = await clientHttp.get(`/requests/queue/client/${clientId}/counts`);
      expect(counts.body).toEqual({ PENDING_REVIEW: 12, FOR_TESTING: 5, FOR_RELEASE: 3, RELEASED: 0, REJECTED: 0 });
      expect(ids(await clientHttp.get(`/requests/queue/client/${clientId}?status=FOR_RELEASE`))).toEqual(forRelease.filter((_, i) => i % 2 === 0));
      expect(ids(await clientHttp.get(`/requests/queue/client/${clientId}?q=lot-4`))).toEqual([pending[4]]);
    });

    it('counts only what a search finds, so each status count says what its filter will show', async () => {
      counted = [];
      counting = true;
      const found = await clientHttp.get(`/requests/queue/client/${clientId}/counts?q=lot-4`);
      counting = false;
      expect(counted).toHaveLength(1);
      expect(found.body).toEqual({ PENDING_REVIEW: 1, FOR_TESTING: 0, FOR_RELEASE: 0, RELEASED: 0, REJECTED: 0 });
      const none = await clientHttp.get(`/requests/queue/client/${clientId}/counts?q=${encodeURIComponent('100%_')}`);
      expect(none.body).toEqual({ PENDING_REVIEW: 0, FOR_TESTING: 0, FOR_RELEASE: 0, RELEASED: 0, REJECTED: 0 });
      const wrong = await clientHttp.get(`/requests/queue/client/${clientId}/counts?q=${'x'.repeat(101)}&status=RELEASED`);
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toMatch(/q: use at most 100 characters/);
      expect(wrong.body.message).toMatch(/status/);
    });

    it("shows a rejected request's reason (stored, e-mailed) and no due date", async () => {
      const mark = app.mailbox.mark();
      const target = pending[22];
      const refused = await staff.put(`/requests/reject/${target}`, { reason: 'x'.repeat(2001) });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/^reason: /);
      const res = await staff.put(`/requests/reject/${target}`, { reason: '  The samples arrived thawed.  ' });
      expect(res.status).toBe(200);
      const email = (await app.db('users').where('id', clientId).first('email')).email;
      const mail = await app.mailbox.waitFor(email, (m) => m.subject.includes('rejected'), { after: mark });
      expect(mail.text).toContain('Reason: The samples arrived thawed.');
      const [row] = rowsOf(await clientHttp.get(`/requests/queue/client/${clientId}?status=REJECTED`));
      expect(row).toMatchObject({ requestId: target, requestStatus: 'REJECTED', dueDate: null, rejectionReason: 'The samples arrived thawed.' });
      const messages = await clientHttp.get(`/requests/messages/${target}`);
      expect(messages.body).toEqual([expect.objectContaining({ kind: 'rejection', body: 'The samples arrived thawed.' })]);
      // The request's details carry the reason too: the client's review and the desk's details show it.
      expect((await clientHttp.get(`/requests/detail/${target}`)).body).toMatchObject({ requestStatus: 'REJECTED', rejectionReason: 'The samples arrived thawed.' });
      expect((await staff.get(`/requests/pendingrequest/${target}`)).body.rejectionReason).toBe('The samples arrived thawed.');
      expect((await staff.get(`/requests/pendingrequest/${pending[21]}`)).body.rejectionReason).toBeNull();
      await app.db('requests').where('id', target).update({ status: 'PENDING_REVIEW' });
    });

    it("refuses another client's list and counts", async () => {
      expect((await otherClient.get(`/requests/queue/client/${clientId}`)).status).toBe(403);
      expect((await otherClient.get(`/requests/queue/client/${clientId}/counts`)).status).toBe(403);
      expect((await staff.get(`/requests/queue/client/${clientId}?limit=1`)).status).toBe(200);
    });
  });

  describe('permissions', () => {
    it('answers 401 without a session, 403 to roles that do not work the list', async () => {
      expect((await app.anonymous().get('/requests/queue/pending')).status).toBe(401);
      expect((await clientHttp.get('/requests/queue/pending')).status).toBe(403);
      expect((await clientHttp.get('/requests/queue/for-release')).status).toBe(403);
      expect((await clientHttp.get('/requests/queue/for-testing')).status).toBe(403);
      expect((await microbio.get('/requests/queue/pending')).status).toBe(403);
      expect((await chem.get('/requests/queue/for-testing?discipline=microbio')).status).toBe(403);
      expect((await chem.get('/requests/queue/for-testing?discipline=chem')).status).toBe(200);
    });
  });

  describe('validation', () => {
    const cases: [string, RegExp][] = [
      ['limit=0', /^limit: must be at least 1$/],
      ['limit=201', /^limit: must be at most 200$/],
      ['limit=ten', /^limit: must be a number$/],
      ['after=garbage', /^after: is not a cursor of this list$/],
      ['sort=fastest', /^sort: must be one of oldest, urgent, newest$/],
      ['discipline=physics', /^discipline: must be one of/],
      ['status=RELEASED', /^status: must be one of PENDING_REVIEW on this list$/],
      ['state=finished', /^state: applies to the for-testing list only$/],
      ['format=xml', /^format: must be json or csv$/],
      ['q=a&q=b', /^q: must be text$/],
      ['color=red', /color/],
    ];
    it.each(cases)('answers 400 naming the parameter for %s', async (query, message) => {
      const res = await staff.get(`/requests/queue/pending?${query}`);
      expect(res.status).toBe(400);
      expect((res.body as { message: string }).message).toMatch(message);
    });

    it('refuses a cursor of another sort order and an unknown list', async () => {
      const first = await staff.get('/requests/queue/pending?limit=2');
      const after = new URL(nextLink(first)!, app.url).searchParams.get('after')!;
      const res = await staff.get(`/requests/queue/pending?sort=urgent&after=${after}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'after: is a cursor of the oldest order, not urgent' });
      expect((await staff.get('/requests/queue/archived')).status).toBe(400);
    });
  });
});
