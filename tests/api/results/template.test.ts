import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests, type SeededRequest } from '../../../fixtures/requests.js';
import { RESULTS_CSV_HEADER } from '../../../server/domain/resultsCsv.js';
import { templateRows } from '../../../server/services/results/template.js';
import type { HttpClient } from '../../helpers/httpClient.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

describe(`GET /results/template: the import layout with the analyses awaiting results (${databaseKind()})`, () => {
  let app: TestApp;
  let chem: HttpClient;
  let microbio: HttpClient;
  let staff: HttpClient;
  let client: HttpClient;
  let open: SeededRequest;
  let released: SeededRequest;
  let complete: SeededRequest;
  let ownerId: number;

  beforeAll(async () => {
    app = await startTestApp();
    chem = (await app.signedIn('chemtester')).http;
    microbio = (await app.signedIn('microbiotester')).http;
    staff = (await app.signedIn('staff')).http;
    const owner = await app.signedIn('client');
    client = owner.http;
    ownerId = owner.user.id;
    [open, released, complete] = await insertRequests(app.db, [
      { clientUserId: owner.user.id, tests: ['betaLactams', 'chloramphenicol', 'eColi'], status: 'FOR_TESTING', samples: ['Beef', 'Pork'] },
      { clientUserId: owner.user.id, tests: ['betaLactams'], status: 'RELEASED', samples: ['Veal'] },
      { clientUserId: owner.user.id, tests: ['tetracyclines'], status: 'FOR_TESTING', samples: ['Liver'] },
    ]);
    // One analysis entered completely, one with a value but no remark (still outstanding).
    await app.db('analyses').where({ sample_id: open.sampleIds[0], test_code: 'betaLactams' }).update({ value: 'ND', remark: 'negative' });
    await app.db('analyses').where({ sample_id: open.sampleIds[1], test_code: 'betaLactams' }).update({ value: '0.1', remark: null });
    await app.db('analyses').where({ request_id: complete.requestId }).update({ value: 'ND', remark: 'negative' });
  });
  afterAll(() => app?.close());

  const rowsOf = (text: string) => text.trim().split('\r\n');
  const cn = (r: SeededRequest) => r.controlNumber!;

  it('streams the outstanding analyses of the discipline as CSV, for the discipline\'s testers and the desk', async () => {
    const res = await chem.get('/results/template?discipline=chem');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="results-template-chem.csv"');
    expect(rowsOf(res.text)).toEqual([
      RESULTS_CSV_HEADER,
      `${cn(open)},1,chloramphenicol,,,`,
      `${cn(open)},2,betaLactams,,,`,
      `${cn(open)},2,chloramphenicol,,,`,
    ]);
    expect((await staff.get('/results/template?discipline=chem')).text).toBe(res.text);

    const finished = await chem.get(`/results/template?discipline=chem&status=finished`);
    expect(rowsOf(finished.text)).toEqual([RESULTS_CSV_HEADER, `${cn(open)},1,betaLactams,,,`, `${cn(complete)},1,tetracyclines,,,`]);
    const one = await chem.get(`/results/template?discipline=chem&status=all&request=${cn(complete)}`);
    expect(rowsOf(one.text)).toEqual([RESULTS_CSV_HEADER, `${cn(complete)},1,tetracyclines,,,`]);
    const byId = await chem.get(`/results/template?discipline=chem&status=all&request=${complete.requestId}`);
    expect(byId.text).toBe(one.text);
    // The released request's analysis is never in a template.
    expect((await chem.get('/results/template?discipline=chem&status=all')).text).not.toContain(cn(released));
  });

  it('answers 403 to a tester of another discipline and to clients, 401 when signed out, before reading anything', async () => {
    const otherTester = await microbio.get('/results/template?discipline=chem&request=1');
    expect(otherTester.status).toBe(403);
    expect(otherTester.body.message).toMatch(/Only staff and chem testers/);
    // A client reads no For Testing list at all, whatever it asks.
    for (const path of ['/results/template?discipline=chem&request=1', '/results/template']) {
      const res = await client.get(path);
      expect(res.status, path).toBe(403);
      expect(res.body.message, path).toEqual(expect.any(String));
    }
    expect((await app.anonymous().get('/results/template?discipline=chem')).status).toBe(401);
    expect((await microbio.get('/results/template?discipline=microbio')).text.split('\r\n')[1]).toBe(`${cn(open)},1,eColi,,,`);
  });

  it('answers 400 with a message for a wrong query and 404 for a request that does not exist', async () => {
    const cases: Array<[string, number, RegExp]> = [
      ['/results/template', 400, /discipline must be one of chem, microbio, molbio/],
      ['/results/template?discipline=physics', 400, /discipline must be one of/],
      ['/results/template?discipline=chem&status=pending', 400, /status must be one of outstanding, finished, all/],
      ['/results/template?discipline=chem&request=2099-0001', 404, /No request 2099-0001/],
    ];
    for (const [path, status, message] of cases) {
      const res = await staff.get(path);
      expect(res.status, path).toBe(status);
      expect(res.body.message, path).toMatch(message);
    }
  });

  it('reads a page per query, each page after the last row of the one before (keyset), and repeats no row', async () => {
    const many = await insertRequests(app.db, Array.from({ length: 7 }, (_, i) => ({
      clientUserId: ownerId, tests: ['eColi', 'salmonellaSp'], status: 'FOR_TESTING' as const, samples: i % 2 ? ['A', 'B'] : ['A'],
    })));
    const expected = (await app.db('analyses').whereIn('request_id', [open.requestId, ...many.map((r) => r.requestId)]).where('result_group', 'microbio').count({ n: '*' }))[0].n;
    const pages: number[] = [];
    const seen: string[] = [];
    for await (const page of templateRows(app.db, { discipline: 'microbio' }, 4)) {
      pages.push(page.length);
      seen.push(...page.map((r) => `${r.controlNumber}/${r.samplePosition}/${r.testCode}`));
    }
    expect(seen).toHaveLength(Number(expected));
    expect(new Set(seen).size).toBe(seen.length);
    expect(pages.slice(0, -1).every((n) => n === 4)).toBe(true);
    const http = await microbio.get('/results/template?discipline=microbio');
    expect(rowsOf(http.text).slice(1).map((l) => l.split(',').slice(0, 3).join('/'))).toEqual(seen);
  });
});
