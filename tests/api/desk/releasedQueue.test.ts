import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../../fixtures/requests.js';
import { QUEUE_EXPORT_CHUNK, type QueueRow } from '../../../server/domain/queue.js';
import type { HttpClient, HttpResponse } from '../../helpers/httpClient.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

const rowsOf = (res: HttpResponse) => res.body as QueueRow[];
const ids = (res: HttpResponse) => rowsOf(res).map((r) => r.requestId);
const nextLink = (res: HttpResponse) => /^<([^>]+)>; rel="next"$/.exec(res.headers.get('Link') ?? '')?.[1];

/** More released requests than one export chunk, so the CSV is read in two. */
const RELEASED = QUEUE_EXPORT_CHUNK + 10;
/** Submitted one a minute from 5 January; released in the opposite order, one an hour back from 1 March. */
const submitted = (i: number) => new Date(Date.UTC(2026, 0, 5, 8) + i * 60_000).toISOString();
const released = (i: number) => new Date(Date.UTC(2026, 2, 1, 8) - i * 3_600_000).toISOString();

describe(`the released list, keyset-paged and exported (${databaseKind()})`, () => {
  let app: TestApp;
  let staff: HttpClient;
  let microbio: HttpClient;
  let client: HttpClient;
  /** Request ids in seed order; request i was released at released(i), so the latest release is the first. */
  let seeded: { requestId: number; controlNumber: string }[];
  let counted: string[] = [];
  let counting = false;

  async function walk(http: HttpClient, first: string): Promise<number[]> {
    const seen: number[] = [];
    for (let next: string | undefined = first, pages = 0; next; pages += 1) {
      expect(pages).toBeLessThan(20);
      const res: HttpResponse = await http.get(next);
      expect(res.status).toBe(200);
      seen.push(...ids(res));
      next = nextLink(res);
    }
    return seen;
  }

  beforeAll(async () => {
    app = await startTestApp({}, { readCache: false });
    staff = (await app.signedIn('staff')).http;
    microbio = (await app.signedIn('microbiotester')).http;
    const signed = await app.signedIn('client', { companyName: 'Acme Pork' });
    client = signed.http;
    const other = await app.createUser('client', { companyName: 'Bayside Poultry' });
    const rows = await insertRequests(
      app.db,
      Array.from({ length: RELEASED }, (_, i) => ({
        clientUserId: i % 2 === 0 ? signed.user.id : other.id,
        tests: i % 3 === 0 ? ['dog'] : ['eColi'],
        status: 'RELEASED' as const,
        submissionDate: submitted(i),
      })),
    );
    seeded = rows.map((r) => ({ requestId: r.requestId, controlNumber: r.controlNumber! }));
    // One transaction: a commit per row cost seconds on PostgreSQL.
    await app.db.transaction(async (trx) => {
      for (const [i, { requestId }] of seeded.entries()) {
        await trx('requests').where('id', requestId).update({ released_at: released(i), lot_batch_no: i === 7 ? '@SUM(A1)' : `LOT-${i}` });
      }
    });
    app.db.on('query', (q: { sql: string }) => {
      if (counting && /\brequests\b/.test(q.sql)) counted.push(q.sql);
    });
  });
  afterAll(() => app?.close());

  it('pages latest release first by default, and earliest first on asking, each request once', async () => {
    const first = await staff.get('/requests/queue/released?limit=3');
    expect(ids(first)).toEqual(seeded.slice(0, 3).map((s) => s.requestId));
    expect(rowsOf(first)[0]).toMatchObject({ controlNumber: seeded[0].controlNumber, requestStatus: 'RELEASED', releasedAt: released(0), waitingSince: released(0) });
    const q = `q=${encodeURIComponent('LOT-1')}`;
    const lots = seeded.map((s, i) => ({ ...s, i })).filter(({ i }) => `LOT-${i}`.includes('LOT-1'));
    expect(await walk(staff, `/requests/queue/released?limit=40&${q}`)).toEqual(lots.map((s) => s.requestId));
    expect(await walk(staff, `/requests/queue/released?limit=40&sort=oldest&${q}`)).toEqual(lots.map((s) => s.requestId).reverse());
  });

  it('reads a page with one query', async () => {
    const first = await staff.get('/requests/queue/released?limit=5');
    counted = [];
    counting = true;
    await staff.get(nextLink(first)!);
    counting = false;
    expect(counted).toHaveLength(1);
  });

  it('searches by control number and company, and filters by release day (until inclusive)', async () => {
    expect(ids(await staff.get(`/requests/queue/released?q=${seeded[12].controlNumber}`))).toEqual([seeded[12].requestId]);
    // Hyphens are ignored, in the text and in what is searched.
    expect(ids(await staff.get(`/requests/queue/released?q=${seeded[12].controlNumber.replace('-', '')}`))).toEqual([seeded[12].requestId]);
    // Two characters are searched without the index (too short for a trigram), with the same answer.
    expect(ids(await staff.get('/requests/queue/released?q=ba&limit=200'))).toEqual(ids(await staff.get('/requests/queue/released?q=bay&limit=200')));
    const bayside = rowsOf(await staff.get('/requests/queue/released?q=bayside&limit=200'));
    expect(bayside.length).toBe(200);
    expect(new Set(bayside.map((r) => r.companyName))).toEqual(new Set(['Bayside Poultry']));
    // released(0..7) fall on 1 March; released(8..31) on 29 February... (one an hour back).
    const day = await staff.get('/requests/queue/released?since=2026-02-28&until=2026-02-28&limit=200');
    const expected = seeded.filter((_, i) => released(i).startsWith('2026-02-28')).map((s) => s.requestId);
    expect(expected).toHaveLength(24);
    expect(ids(day)).toEqual(expected);
  });

  it('exports the whole filtered list as CSV, streamed in chunks of one query each, formulas made inert', async () => {
    counted = [];
    counting = true;
    const res = await staff.get('/requests/queue/released?format=csv&limit=5');
    counting = false;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="released.csv"');
    // Streamed: no length known before the last chunk was read.
    expect(res.headers.get('content-length')).toBeNull();
    expect(counted).toHaveLength(2);
    const lines = res.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Control number,Status,Company,Purpose,Lot,Samples,Tests,Submitted,Waiting since,Due date,Any positive,Released');
    expect(lines).toHaveLength(1 + RELEASED);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(seeded.map((s) => s.controlNumber));
    expect(lines[8]).toContain(`,'@SUM(A1),`);
    expect(lines[1].endsWith(`,${released(0)}`)).toBe(true);

    const searched = await staff.get(`/requests/queue/released?format=csv&sort=oldest&q=${seeded[3].controlNumber}`);
    expect(searched.text.trimEnd().split('\r\n')).toHaveLength(2);
  });

  it('shows a tester only its discipline, and refuses clients and strangers as GET requests/released does', async () => {
    const mine = await walk(microbio, '/requests/queue/released?limit=200');
    expect(mine).toEqual(seeded.filter((_, i) => i % 3 !== 0).map((s) => s.requestId));
    expect((await client.get('/requests/queue/released')).status).toBe(403);
    expect((await client.get('/requests/queue/released?format=csv')).status).toBe(403);
    expect((await microbio.get('/requests/queue/released?discipline=molbio')).status).toBe(403);
    expect((await app.anonymous().get('/requests/queue/released')).status).toBe(401);
  });

  it("answers Test Results' calls: a tester's released and for-release lists searched, within days, newest or oldest first, whole as CSV", async () => {
    const bayside = seeded.filter((_, i) => i % 3 !== 0 && i % 2 === 1);
    // Released 1 March 08:00 back one an hour: request i on day 1 March for i < 9, the days before after.
    const inFebruary = bayside.filter((s) => released(seeded.indexOf(s)) < '2026-03-01');
    const found = await walk(microbio, '/requests/queue/released?q=bayside&until=2026-02-28&sort=oldest&limit=100');
    expect(found).toEqual(inFebruary.map((s) => s.requestId).reverse());
    const csv = await microbio.get('/requests/queue/released?q=bayside&until=2026-02-28&sort=oldest&format=csv');
    expect(csv.status).toBe(200);
    expect(csv.text.trimEnd().split('\r\n').slice(1).map((l) => l.split(',')[0])).toEqual(inFebruary.map((s) => s.controlNumber).reverse());

    const awaiting = await insertRequests(app.db, [
      { clientUserId: (await app.createUser('client', { companyName: 'Cebu Meats' })).id, tests: ['eColi'], status: 'FOR_RELEASE', submissionDate: '2026-02-10T08:00:00.000Z' },
      { clientUserId: (await app.createUser('client', { companyName: 'Cebu Meats' })).id, tests: ['eColi'], status: 'FOR_RELEASE', submissionDate: '2026-02-11T08:00:00.000Z' },
      { clientUserId: (await app.createUser('client', { companyName: 'Cebu Meats' })).id, tests: ['dog'], status: 'FOR_RELEASE', submissionDate: '2026-02-12T08:00:00.000Z' },
    ]);
    expect(await walk(microbio, '/requests/queue/for-release?q=cebu&sort=newest')).toEqual([awaiting[1].requestId, awaiting[0].requestId]);
    expect(await walk(microbio, '/requests/queue/for-release?q=cebu&since=2026-02-11')).toEqual([awaiting[1].requestId]);
    const forRelease = await microbio.get('/requests/queue/for-release?q=cebu&sort=newest&format=csv');
    expect(forRelease.text.trimEnd().split('\r\n').slice(1).map((l) => l.split(',')[0])).toEqual([awaiting[1].controlNumber, awaiting[0].controlNumber]);
    expect((await microbio.get('/requests/queue/for-release?discipline=chem')).status).toBe(403);
  });

  it('refuses a sort the list does not offer, a bad day and a reversed range, naming the parameter', async () => {
    const cases: [string, string][] = [
      ['sort=urgent', 'sort: must be one of newest, oldest on this list'],
      ['since=2026-02-30', 'since: is not a real date'],
      ['since=2026-03-02&until=2026-03-01', 'until: must not be before since'],
    ];
    for (const [query, message] of cases) {
      const res = await staff.get(`/requests/queue/released?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message });
    }
  });
});
