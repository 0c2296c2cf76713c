import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../../fixtures/requests.js';
import type { HttpClient } from '../../helpers/httpClient.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

const entry = (sampleId: number, testCode: string, value: string | null, remark: '' | 'positive' | 'negative' | null = 'negative') => ({
  sampleId,
  testCode,
  value,
  remark,
  analysisDate: value ? '2026-03-10' : null,
});

describe(`PUT results/request/{requestId}: a whole request in one call (${databaseKind()})`, () => {
  let app: TestApp;
  let chem: HttpClient;
  let microbio: HttpClient;
  let staff: HttpClient;
  let clientId: number;

  beforeAll(async () => {
    app = await startTestApp();
    chem = (await app.signedIn('chemtester')).http;
    microbio = (await app.signedIn('microbiotester')).http;
    staff = (await app.signedIn('staff')).http;
    clientId = (await app.createUser('client')).id;
  });
  afterAll(() => app?.close());

  const stored = (requestId: number) =>
    app.db('analyses').where('request_id', requestId).orderBy(['sample_id', 'test_code']).select('sample_id', 'test_code', 'value', 'remark');
  const status = async (requestId: number) => (await app.db('requests').where('id', requestId).first('status')).status;
  const seed = async (status: 'FOR_TESTING' | 'FOR_RELEASE' = 'FOR_TESTING') =>
    (await insertRequests(app.db, [{ clientUserId: clientId, tests: ['betaLactams', 'chloramphenicol', 'eColi'], status, samples: ['Beef', 'Pork'] }]))[0];

  it("writes every chemistry entry of the request at once and says what it wrote; the other discipline's analyses stay", async () => {
    const req = await seed();
    const [s1, s2] = req.sampleIds;
    const res = await chem.put(`/results/request/${req.requestId}`, {
      entries: [entry(s1, 'betaLactams', '0.1 ppm', 'positive'), entry(s2, 'betaLactams', 'ND'), entry(s1, 'chloramphenicol', 'ND'), entry(s2, 'chloramphenicol', '1.5', '')],
    });
    expect(res.status).toBe(200);
    expect(res.body.changed).toBe(4);
    expect(res.body.requestStatus).toBe('FOR_TESTING');
    expect(res.body.analyses.map((a: { testCode: string }) => a.testCode).sort()).toEqual(['betaLactams', 'betaLactams', 'chloramphenicol', 'chloramphenicol']);
    const rows = await stored(req.requestId);
    expect(rows.filter((r) => r.value !== null)).toHaveLength(4);
    // The value without + or - is kept, with no remark: the request is not complete.
    expect(rows.find((r) => r.sample_id === s2 && r.test_code === 'chloramphenicol')).toMatchObject({ value: '1.5', remark: null });
    expect(rows.filter((r) => r.test_code === 'eColi').every((r) => r.value === null)).toBe(true);

    // The same Save again writes nothing, and says so.
    const again = await chem.put(`/results/request/${req.requestId}`, { entries: [entry(s1, 'betaLactams', '0.1 ppm', 'positive')] });
    expect(again.status).toBe(200);
    expect(again.body.changed).toBe(0);
    expect((await app.db('audit_log').where({ request_id: req.requestId, action: 'results.write' })).length).toBe(1);
  });

  it('writes nothing when one entry is wrong (all or nothing), naming the entry', async () => {
    const req = await seed();
    const [s1, s2] = req.sampleIds;
    const res = await chem.put(`/results/request/${req.requestId}`, {
      entries: [entry(s1, 'betaLactams', 'ND'), entry(s2, 'tetracyclines', 'ND')],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('tetracyclines is not a test requested');
    expect((await stored(req.requestId)).every((r) => r.value === null)).toBe(true);

    const foreign = (await seed()).sampleIds[0];
    const wrongSample = await chem.put(`/results/request/${req.requestId}`, { entries: [entry(s1, 'betaLactams', 'ND'), entry(foreign, 'betaLactams', 'ND')] });
    expect(wrongSample.status).toBe(400);
    expect((await stored(req.requestId)).every((r) => r.value === null)).toBe(true);
  });

  it("refuses another discipline's analyses, staff and clients", async () => {
    const req = await seed();
    const [s1] = req.sampleIds;
    const res = await chem.put(`/results/request/${req.requestId}`, { entries: [entry(s1, 'betaLactams', 'ND'), entry(s1, 'eColi', 'ND')] });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('You may not enter results of eColi');
    expect((await staff.put(`/results/request/${req.requestId}`, { entries: [] })).status).toBe(403);
    expect((await app.anonymous().put(`/results/request/${req.requestId}`, { entries: [] })).status).toBe(401);
    expect((await stored(req.requestId)).every((r) => r.value === null)).toBe(true);
  });

  it('completes the request with the last entries, and clearing a value sends it back to FOR TESTING', async () => {
    const req = await seed('FOR_RELEASE');
    const [s1] = req.sampleIds;
    expect(await status(req.requestId)).toBe('FOR_RELEASE');
    const cleared = await microbio.put(`/results/request/${req.requestId}`, { entries: [entry(s1, 'eColi', '')] });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ changed: 1, requestStatus: 'FOR_TESTING' });
    expect(cleared.body.analyses.find((a: { sampleId: number }) => a.sampleId === s1)).toMatchObject({ value: null, remark: null });
    const again = await microbio.put(`/results/request/${req.requestId}`, { entries: [entry(s1, 'eColi', '<10 cfu/g')] });
    expect(again.body).toMatchObject({ changed: 1, requestStatus: 'FOR_RELEASE' });
  });

  it('answers 400 naming the field for a malformed body, 404 for a missing request, 409 for a released one', async () => {
    const req = await seed();
    const [s1] = req.sampleIds;
    const bad = await chem.put(`/results/request/${req.requestId}`, { entries: [{ ...entry(s1, 'betaLactams', 'ND'), remark: 'maybe' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^entries\.0\.remark: /);
    expect((await chem.put(`/results/request/${req.requestId}`, { rows: [] })).status).toBe(400);
    expect((await chem.put('/results/request/abc', { entries: [] })).status).toBe(400);
    expect((await chem.put('/results/request/99999999', { entries: [] })).status).toBe(404);
    const [released] = await insertRequests(app.db, [{ clientUserId: clientId, tests: ['betaLactams'], status: 'RELEASED' }]);
    const closed = await chem.put(`/results/request/${released.requestId}`, { entries: [entry(released.sampleIds[0], 'betaLactams', 'changed')] });
    expect(closed.status).toBe(409);
  });
});
