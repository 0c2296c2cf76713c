import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests, type ResultSeed } from '../../../fixtures/requests.js';
import type { User } from '../../../server/services/users.js';
import type { HttpClient } from '../../helpers/httpClient.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

const done = (value: string, remark: 'positive' | 'negative', analysisDate = '2026-03-10'): ResultSeed => ({ value, remark, analysisDate });

describe(`desk lists (${databaseKind()})`, () => {
  let app: TestApp;
  let staff: { user: User; http: HttpClient };
  let client: User;

  beforeAll(async () => {
    app = await startTestApp();
    staff = await app.signedIn('staff');
    client = await app.createUser('client', { classification: 'Meat Dealer' });
  });
  afterAll(() => app?.close());

  it('GET requests/pending: pending requests only, oldest first, with classification, families and date', async () => {
    const [newer, older] = await insertRequests(app.db, [
      { clientUserId: client.id, tests: ['dog'], submissionDate: '2026-03-05T08:00:00.000Z' },
      { clientUserId: client.id, tests: ['eColi', 'chloramphenicol'], submissionDate: '2026-03-01T08:00:00.000Z' },
      { clientUserId: client.id, tests: ['eColi'], status: 'FOR_TESTING' },
      { clientUserId: client.id, tests: ['eColi'], status: 'REJECTED' },
    ]);
    const res = await staff.http.get('/requests/pending');
    expect(res.status).toBe(200);
    expect(res.body.map((r: { requestId: number }) => r.requestId)).toEqual([older.requestId, newer.requestId]);
    expect(res.body[0]).toMatchObject({
      requestId: older.requestId,
      clientClassification: 'Meat Dealer',
      microbio: true,
      chem: true,
      molBio: false,
      submissionDate: '2026-03-01T08:00:00.000Z',
      requestStatus: 'PENDING_REVIEW',
    });
  });

  it('GET requests/pendingrequest/{id}: the request with its flags and samples; 404 when missing', async () => {
    const [seeded] = await insertRequests(app.db, [
      { clientUserId: client.id, tests: ['betaLactams', 'cat'], samples: ['Beef loin', 'Pork <belly>'], testingPurpose: 'Export' },
    ]);
    const res = await staff.http.get(`/requests/pendingrequest/${seeded.requestId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      requestId: seeded.requestId,
      testingPurpose: 'Export',
      chem: true,
      microbial: true,
      elisa: false,
      betaLactams: true,
      cat: true,
      dog: false,
      tests: ['betaLactams', 'cat'],
    });
    expect(res.body.samples.map((s: { sampleTypeDescription: string }) => s.sampleTypeDescription)).toEqual(['Beef loin', 'Pork <belly>']);
    expect((await staff.http.get('/requests/pendingrequest/987654')).status).toBe(404);
  });

  describe('GET requests/for-release', () => {
    let complete: number;
    let chemPartly: number;

    beforeAll(async () => {
      const seeded = await insertRequests(app.db, [
        {
          clientUserId: client.id,
          tests: ['eColi', 'betaLactams', 'dog'],
          samples: ['Beef', 'Pork'],
          status: 'FOR_RELEASE',
          result: (position, code) => done(`${code} #${position}`, code === 'dog' ? 'positive' : 'negative'),
        },
        {
          // an ELISA result still missing: chemistry is pending although microbial inhibition is done
          clientUserId: client.id,
          tests: ['salmonellaSp', 'tetracyclines', 'chloramphenicol'],
          status: 'FOR_RELEASE',
          result: (_p, code) => (code === 'chloramphenicol' ? null : done('ok', 'negative')),
        },
        { clientUserId: client.id, tests: ['eColi'], status: 'FOR_TESTING' },
        { clientUserId: client.id, tests: ['eColi'], status: 'RELEASED' },
      ]);
      complete = seeded[0].requestId;
      chemPartly = seeded[1].requestId;
    });

    it('lists requests awaiting release with control number, flags and completion per family and group', async () => {
      const res = await staff.http.get('/requests/for-release');
      expect(res.status).toBe(200);
      expect(res.headers.get('X-Total-Count')).toBe('2');
      expect(res.body.map((r: { requestId: number }) => r.requestId)).toEqual([complete, chemPartly]);
      const [first, second] = res.body;
      // The row carries what the screen shows; results are read per request when a row is expanded.
      expect(first).toEqual({
        requestId: complete,
        controlNumber: expect.stringMatching(/^2026-\d{4}$/),
        submissionDate: '2026-03-02T08:00:00.000Z',
        requestStatus: 'FOR_RELEASE',
        microbio: true, chem: true, molBio: true, microbial: true, elisa: false, speciesIdentification: true,
        completeMicrobio: true, completeChem: true, completeMolBio: true, completeChemMicrobial: true, completeChemElisa: false,
        // Issue 26: results stored without decisions (seeded) judge nothing.
        conformity: null,
      });
      expect(second).toMatchObject({ completeMicrobio: true, completeChemMicrobial: true, completeChemElisa: false, completeChem: false, completeMolBio: false, molBio: false });
    });

    it('gives a tester the requests of its own discipline only', async () => {
      const molbio = await app.signedIn('molbiotester');
      expect((await molbio.http.get('/requests/for-release')).body.map((r: { requestId: number }) => r.requestId)).toEqual([complete]);
      const chem = await app.signedIn('chemtester');
      expect((await chem.http.get('/requests/for-release')).body.map((r: { requestId: number }) => r.requestId)).toEqual([complete, chemPartly]);
    });

    it('costs the same number of queries for 2 requests as for 40', async () => {
      const countQueries = async () => {
        let n = 0;
        // The mail outbox worker polls the same database in the background, and the session and the
        // change versions are read whatever the list: no part of what the list costs.
        const onQuery = (q: { sql: string }) => (n += /\b(outbox|sessions|lab_versions)\b/.test(q.sql) ? 0 : 1);
        app.db.on('query', onQuery);
        try {
          expect((await staff.http.get('/requests/for-release')).status).toBe(200);
        } finally {
          app.db.off('query', onQuery);
        }
        return n;
      };
      // Each count follows a change to the list, so neither is answered from the read cache.
      await insertRequests(app.db, [{ clientUserId: client.id, tests: ['eColi'], status: 'FOR_RELEASE' as const }]);
      const before = await countQueries();
      await insertRequests(app.db, Array.from({ length: 37 }, () => ({ clientUserId: client.id, tests: ['eColi', 'dog'], status: 'FOR_RELEASE' as const })));
      expect(await countQueries()).toBe(before);
    });
  });

  it('GET requests/released: released requests, last released first, scoped for testers', async () => {
    const seeded = await insertRequests(app.db, [
      { clientUserId: client.id, tests: ['eColi'], status: 'RELEASED', submissionDate: '2026-02-01T08:00:00.000Z' },
      { clientUserId: client.id, tests: ['dog'], status: 'RELEASED', submissionDate: '2026-02-03T08:00:00.000Z' },
    ]);
    const ids = seeded.map((s) => s.requestId);
    const res = await staff.http.get('/requests/released');
    expect(res.body.find((r: { requestId: number }) => r.requestId === ids[0])).toEqual({
      requestId: ids[0],
      controlNumber: seeded[0].controlNumber,
      submissionDate: '2026-02-01T08:00:00.000Z',
      requestStatus: 'RELEASED',
      releasedAt: '2026-02-01T08:00:00.000Z',
      microbio: true, chem: false, molBio: false, microbial: false, elisa: false, speciesIdentification: false,
    });
    const all = res.body.map((r: { requestId: number }) => r.requestId);
    expect(all.filter((id: number) => ids.includes(id))).toEqual([ids[1], ids[0]]);
    const microbio = await app.signedIn('microbiotester');
    const mine = (await microbio.http.get('/requests/released')).body.map((r: { requestId: number }) => r.requestId);
    expect(mine).toContain(ids[0]);
    expect(mine).not.toContain(ids[1]);
  });
});
