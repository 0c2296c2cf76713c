// Issue 25: an amended result is marked wherever results are read, on the testers' Test Results too.
// GET requests/{id}/amendments gives a tester the marks (old and new reading, report, who, when, why)
// of its own discipline's tests only, and never the certificate; the client and the desk read them all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../../fixtures/requests.js';
import type { User } from '../../../server/services/users.js';
import type { HttpClient } from '../../helpers/httpClient.js';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

describe(`amendment marks for each reader (${databaseKind()})`, () => {
  let app: TestApp;
  let staff: HttpClient;
  let clientA: { user: User; http: HttpClient };
  let clientB: HttpClient;
  let micro: HttpClient;
  let chem: HttpClient;
  let molbio: HttpClient;
  let requestId: number;
  let controlNumber: string;
  let sampleIds: number[];
  let unreleased: number;

  const FIRST = '2026-04-01T07:20:00.000Z';
  const SECOND = '2026-04-01T07:40:00.000Z';
  const amendments = (who: HttpClient, id = requestId) => who.get(`/requests/${id}/amendments`);

  beforeAll(async () => {
    app = await startTestApp();
    app.clock.set('2026-04-01T07:00:00.000Z');
    staff = (await app.signedIn('staff', { firstName: 'Rosa', lastName: 'Reyes' })).http;
    clientA = await app.signedIn('client');
    clientB = (await app.signedIn('client')).http;
    micro = (await app.signedIn('microbiotester')).http;
    chem = (await app.signedIn('chemtester')).http;
    molbio = (await app.signedIn('molbiotester')).http;
    const [complete, open] = await insertRequests(app.db, [
      {
        clientUserId: clientA.user.id,
        tests: ['eColi', 'betaLactams'],
        samples: ['Beef loin', 'Pork belly'],
        status: 'FOR_RELEASE',
        result: (position, code) => ({
          value: code === 'eColi' && position === 2 ? '2.3 x 10^3' : 'Not detected',
          remark: code === 'eColi' && position === 2 ? 'positive' : 'negative',
          analysisDate: '2026-03-30',
        }),
      },
      { clientUserId: clientA.user.id, tests: ['eColi'], status: 'FOR_RELEASE' },
    ]);
    ({ requestId, sampleIds } = complete);
    controlNumber = complete.controlNumber!;
    unreleased = open.requestId;
    expect((await staff.put(`/requests/approveRelease/${requestId}`, { password: TEST_PASSWORD })).status).toBe(200);
    // The first amendment corrects a microbiology and a chemistry result, the second chemistry only.
    app.clock.set(FIRST);
    const first = await staff.post(`/requests/${requestId}/amendments`, {
      reason: 'Transcription error in sample 2',
      password: TEST_PASSWORD,
      results: [
        { sampleId: sampleIds[1], testCode: 'eColi', value: 'Not detected', remark: 'negative', analysisDate: '2026-03-30' },
        { sampleId: sampleIds[0], testCode: 'betaLactams', value: '12 ppb', remark: 'positive', analysisDate: '2026-03-30' },
      ],
    });
    expect(first.status).toBe(201);
    app.clock.set(SECOND);
    const second = await staff.post(`/requests/${requestId}/amendments`, {
      reason: 'Confirmatory run of the beta-lactams screen',
      password: TEST_PASSWORD,
      results: [{ sampleId: sampleIds[0], testCode: 'betaLactams', value: '4 ppb', remark: 'negative', analysisDate: '2026-04-01' }],
    });
    expect(second.status).toBe(201);
  });
  afterAll(() => app?.close());

  const signed = (reportNumber: string, issuedAt: string, reason: string) => ({ reportNumber, signerName: 'Rosa Reyes', issuedAt, reason });
  const eColiChange = () => ({
    samplePosition: 2,
    testCode: 'eColi',
    before: { value: '2.3 x 10^3', remark: 'positive', analysisDate: '2026-03-30' },
    after: { value: 'Not detected', remark: 'negative', analysisDate: '2026-03-30' },
    ...signed(`${controlNumber}-R2`, FIRST, 'Transcription error in sample 2'),
  });
  const betaLactamsChanges = () => [
    {
      samplePosition: 1,
      testCode: 'betaLactams',
      // beta-lactams are judged against a specification: the statement of conformity changes too
      before: { value: 'Not detected', remark: 'negative', analysisDate: '2026-03-30', conformity: null },
      after: { value: '12 ppb', remark: 'positive', analysisDate: '2026-03-30', conformity: 'does_not_conform' },
      ...signed(`${controlNumber}-R2`, FIRST, 'Transcription error in sample 2'),
    },
    {
      samplePosition: 1,
      testCode: 'betaLactams',
      before: { value: '12 ppb', remark: 'positive', analysisDate: '2026-03-30', conformity: 'does_not_conform' },
      after: { value: '4 ppb', remark: 'negative', analysisDate: '2026-04-01', conformity: 'conforms' },
      ...signed(`${controlNumber}-R3`, SECOND, 'Confirmatory run of the beta-lactams screen'),
    },
  ];

  it("gives a tester the marks of its own discipline's results only: old and new reading, who, when and why", async () => {
    const microbiology = await amendments(micro);
    expect(microbiology.status).toBe(200);
    // The chemistry changes, and the chemistry-only second amendment with its reason, are not in it.
    expect(microbiology.body).toEqual([eColiChange()]);

    const chemistry = await amendments(chem);
    expect(chemistry.status).toBe(200);
    expect(chemistry.body).toEqual(betaLactamsChanges());
  });

  it('refuses a tester whose discipline has no test in the request, and the certificate and its reports to every tester', async () => {
    const outsider = await amendments(molbio);
    expect(outsider.status).toBe(403);
    expect(outsider.body).toEqual({ message: 'You do not have permission to do this.' });
    for (const tester of [micro, chem, molbio]) {
      expect((await tester.get(`/requests/${requestId}/certificate.pdf`)).status).toBe(403);
      expect((await tester.get(`/requests/${requestId}/certificate.pdf?version=1`)).status).toBe(403);
      expect((await tester.get(`/requests/${requestId}/reports`)).status).toBe(403);
    }
    // reading the marks is not a download of the certificate
    expect(Number((await app.db('audit_log').where({ request_id: requestId, action: 'report.download' }).count({ n: '*' }).first())!.n)).toBe(0);
  });

  it('gives the owning client and the desk every mark, and the same reports as before', async () => {
    // each amendment's changes in the order of its report: sample by sample
    const [lactamsFirst, lactamsSecond] = betaLactamsChanges();
    const all = [lactamsFirst, eColiChange(), lactamsSecond];
    for (const reader of [clientA.http, staff]) {
      const marks = await amendments(reader);
      expect(marks.status).toBe(200);
      expect(marks.body).toEqual(all);
      const reports = await reader.get(`/requests/${requestId}/reports`);
      expect(reports.status).toBe(200);
      expect(reports.body.map((r: { reportNumber: string; changes: unknown[] }) => [r.reportNumber, r.changes.length])).toEqual([
        [`${controlNumber}-R1`, 0],
        [`${controlNumber}-R2`, 2],
        [`${controlNumber}-R3`, 1],
      ]);
      expect((await reader.get(`/requests/${requestId}/certificate.pdf`)).status).toBe(200);
    }
    expect((await amendments(clientB)).status).toBe(403);
    expect((await amendments(app.anonymous())).status).toBe(401);
  });

  it('answers an unreleased request 409 and a missing one 404 (403 to a client)', async () => {
    const early = await amendments(micro, unreleased);
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('This request has not been released: its certificate is issued on release.');
    expect((await amendments(staff, unreleased)).status).toBe(409);
    expect((await amendments(micro, 999999)).status).toBe(404);
    expect((await amendments(clientA.http, 999999)).status).toBe(403);
    expect((await amendments(micro, 'abc' as unknown as number)).status).toBe(400);
  });
});
