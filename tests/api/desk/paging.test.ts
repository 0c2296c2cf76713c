import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests, type RequestSeed } from '../../../fixtures/requests.js';
import type { HttpClient, HttpResponse } from '../../helpers/httpClient.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

const ids = (res: HttpResponse) => (res.body as { requestId: number }[]).map((r) => r.requestId);
const total = (res: HttpResponse) => res.headers.get('X-Total-Count');

/** Tests of one discipline each, in turn: microbiology, molecular biology, chemistry. */
const TESTS = [['eColi'], ['dog'], ['betaLactams', 'chloramphenicol']];
/** Two requests per minute: the released list then has ties on the release time. */
const at = (i: number) => new Date(Date.UTC(2026, 0, 5, 8) + Math.floor(i / 2) * 60_000).toISOString();

describe(`paging of the request lists (${databaseKind()})`, () => {
  let app: TestApp;
  let staff: HttpClient;
  let microbio: HttpClient;
  /** Released requests, newest release first. */
  let released: number[];
  let releasedMicrobio: number[];
  let forRelease: number[];
  let forTesting: number[];

  beforeAll(async () => {
    // Counts the SQL of computing each answer, so no answer comes from the read cache.
    app = await startTestApp({}, { readCache: false });
    staff = (await app.signedIn('staff')).http;
    microbio = (await app.signedIn('microbiotester')).http;
    const client = await app.createUser('client');
    const seeds = (status: RequestSeed['status'], n: number): RequestSeed[] =>
      Array.from({ length: n }, (_, i) => ({ clientUserId: client.id, tests: TESTS[i % 3], status, submissionDate: at(i) }));
    const seeded = await insertRequests(app.db, seeds('RELEASED', 130));
    released = seeded.map((s) => s.requestId).reverse();
    releasedMicrobio = released.filter((_, i) => (129 - i) % 3 === 0);
    forRelease = (await insertRequests(app.db, seeds('FOR_RELEASE', 7))).map((s) => s.requestId);
    const testing = (await insertRequests(app.db, seeds('FOR_TESTING', 5))).map((s) => s.requestId);
    // Oldest submission first: the two statuses interleave.
    forTesting = [...forRelease.map((id, i) => ({ id, i })), ...testing.map((id, i) => ({ id, i }))]
      .sort((a, b) => at(a.i).localeCompare(at(b.i)) || a.id - b.id)
      .map((r) => r.id);
  });
  afterAll(() => app?.close());

  describe('GET requests/released', () => {
    it('answers the first 100, newest release first, with the total and a link to the next page', async () => {
      const res = await staff.get('/requests/released');
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual(released.slice(0, 100));
      expect(total(res)).toBe('130');
      expect(res.headers.get('Link')).toBe('</requests/released?limit=100&offset=100>; rel="next"');
    });

    it('answers the page asked for with limit and offset; the last page has no next link', async () => {
      const middle = await staff.get('/requests/released?limit=25&offset=50');
      expect(ids(middle)).toEqual(released.slice(50, 75));
      expect(middle.headers.get('Link')).toBe('</requests/released?limit=25&offset=75>; rel="next"');

      const last = await staff.get('/requests/released?limit=50&offset=100');
      expect(ids(last)).toEqual(released.slice(100));
      expect(total(last)).toBe('130');
      expect(last.headers.get('Link')).toBeNull();

      const beyond = await staff.get('/requests/released?offset=1000');
      expect(beyond.body).toEqual([]);
      expect(total(beyond)).toBe('130');
    });

    it('walks the whole list by following the next links, each request once', async () => {
      const seen: number[] = [];
      let next: string | undefined = '/requests/released?limit=500';
      for (let pages = 0; next; pages += 1) {
        const res: HttpResponse = await staff.get(next);
        seen.push(...ids(res));
        next = /^<([^>]+)>; rel="next"$/.exec(res.headers.get('Link') ?? '')?.[1];
        expect(pages).toBeLessThan(2);
      }
      expect(seen).toEqual(released);

      const small: number[] = [];
      for (let offset = 0; offset < 130; offset += 40) small.push(...ids(await staff.get(`/requests/released?limit=40&offset=${offset}`)));
      expect(small).toEqual(released);
    });

    it('pages a tester through the requests of its own discipline only', async () => {
      const first = await microbio.get('/requests/released?limit=20');
      expect(ids(first)).toEqual(releasedMicrobio.slice(0, 20));
      expect(total(first)).toBe(String(releasedMicrobio.length));
      const rest = await microbio.get('/requests/released?limit=20&offset=40');
      expect(ids(rest)).toEqual(releasedMicrobio.slice(40));
      expect(rest.body.every((r: { microbio: boolean }) => r.microbio)).toBe(true);
    });

    it('refuses bad paging values with 400 and every problem in the message', async () => {
      const cases: Array<[string, string[]]> = [
        ['limit=0', ['limit: must be at least 1']],
        ['limit=501', ['limit: must be at most 500']],
        ['limit=ten', ['limit: must be a number']],
        ['limit=2.5', ['limit: must be a whole number']],
        ['offset=-1', ['offset: must not be negative']],
        ['limit=&offset=x', ['limit: must be at least 1', 'offset: must be a number']],
        ['limit=5&limit=6', ['limit: must be a number']],
      ];
      for (const [query, messages] of cases) {
        const res = await staff.get(`/requests/released?${query}`);
        expect(res.status, query).toBe(400);
        for (const message of messages) expect(res.body.message, query).toContain(message);
      }
      // Who asks comes first: nobody learns anything from the validation messages.
      expect((await app.anonymous().get('/requests/released?limit=ten')).status).toBe(401);
      expect((await (await app.signedIn('client')).http.get('/requests/released?limit=ten')).status).toBe(403);
    });

    it('costs the same number of queries for a page of 5 as for a page of 130', async () => {
      const queries = async (path: string) => {
        let n = 0;
        // The mail outbox worker polls the same database in the background; it is no part of the call.
        const onQuery = (q: { sql: string }) => (n += /\boutbox\b/.test(q.sql) ? 0 : 1);
        app.db.on('query', onQuery);
        try {
          expect((await staff.get(path)).status).toBe(200);
        } finally {
          app.db.off('query', onQuery);
        }
        return n;
      };
      expect(await queries('/requests/released?limit=5&offset=1')).toBe(await queries('/requests/released?limit=130&offset=0'));
    });
  });

  describe.each([
    ['for-release', () => forRelease],
    ['for-testing', () => forTesting],
  ])('GET requests/%s', (list, expected) => {
    it('answers the whole queue by default, with its total and no next link', async () => {
      const res = await staff.get(`/requests/${list}`);
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual(expected());
      expect(total(res)).toBe(String(expected().length));
      expect(res.headers.get('Link')).toBeNull();
    });

    it('answers a page for scripts that ask for one', async () => {
      const page = await staff.get(`/requests/${list}?limit=3&offset=2`);
      expect(ids(page)).toEqual(expected().slice(2, 5));
      expect(total(page)).toBe(String(expected().length));
      expect(page.headers.get('Link')).toBe(`</requests/${list}?limit=3&offset=5>; rel="next"`);
      const rest = await staff.get(`/requests/${list}?offset=4`);
      expect(ids(rest)).toEqual(expected().slice(4));
    });

    it('refuses bad paging values with 400', async () => {
      for (const query of ['limit=0', 'limit=501', 'offset=-3', 'offset=later']) {
        const res = await staff.get(`/requests/${list}?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.message, query).toMatch(/^(limit|offset): /);
      }
    });
  });
});
