import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSubmitPayload, type SubmitRequestForm } from '../../../server/domain/requestPayload.js';
import type { User } from '../../../server/services/users.js';
import type { HttpClient } from '../../helpers/httpClient.js';
import { startTestApp, type TestApp, TEST_PASSWORD } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

type Who = { user: User; http: HttpClient };

describe(`request timeline (${databaseKind()})`, () => {
  let app: TestApp;
  let staff: Who;
  let client: Who;
  let otherClient: Who;
  let tester: Who;
  let requestId: number;
  let rejectedId: number;

  // The next minute, once the mail of the step before has left (the outbox worker sends it right after the commit).
  const step = async () => {
    await app.sendQueuedMail();
    app.clock.advanceMinutes(1);
  };
  const result = (value: string) => ({ standardPlateCount: value, standardPlateCountRemarks: '', standardPlateCountAnalysisDate: null });

  beforeAll(async () => {
    app = await startTestApp();
    app.clock.set('2026-03-16T09:00:00.000Z');
    staff = await app.signedIn('staff', { firstName: 'Rosa', lastName: 'Reyes' });
    client = await app.signedIn('client', { firstName: 'Carl', lastName: 'Client' });
    otherClient = await app.signedIn('client');
    tester = await app.signedIn('microbiotester', { firstName: 'Tess', lastName: 'Tester' });

    // The whole journey through the API: submit, question and answer, approve, receive, results (one
    // corrected), completion and release.
    const form: SubmitRequestForm = {
      representativeName: 'acme', contactNumber: '639171234567', emailAddress: 'x@acme.test', companyName: 'Acme',
      clientClassification: 'Importer', ltoNumber: 'LTO-1', testingPurpose: 'Local_Trade', otherTestingPurpose: '',
      sampleCategory: 'Walk-in', lotBatchNo: 'LOT-9', sampleSource: 'Cold storage', productionDate: '2026-03-01',
      expiryDate: '2026-06-01', samplingDate: '2026-03-15', samplerName: 'R. Cruz', samples: ['Beef loin'],
      tests: ['standardPlateCount'], gramPositiveAst: '', gramNegativeAst: '',
    };
    const submit = async (): Promise<number> => {
      const submitted = await client.http.post(`/requests/submitrequest/${client.user.id}`, buildSubmitPayload(form, app.clock.now()));
      expect(submitted.status).toBe(201);
      return submitted.body.requestId;
    };
    requestId = await submit();
    await step();
    expect((await staff.http.post(`/requests/messages/${requestId}`, { body: 'How were the samples kept?' })).status).toBe(201);
    await step();
    expect((await client.http.post(`/requests/messages/${requestId}`, { body: 'Chilled at 4 °C.' })).status).toBe(201);
    await step();
    expect((await staff.http.put(`/requests/approve/${requestId}`)).status).toBe(200);
    await step();
    expect((await staff.http.post(`/requests/receive/${requestId}`, { receivedAt: '2026-03-16T09:04:00Z', containers: 1, condition: 'acceptable', temperatureC: 3 })).status).toBe(201);
    await step();
    const [sample] = (await staff.http.get(`/request/${requestId}`)).body;
    expect((await tester.http.put(`/microbioTestResults/${sample.sampleId}`, result('1.2 x 10^3'))).status).toBe(200);
    await step();
    expect((await tester.http.put(`/microbioTestResults/${sample.sampleId}`, { ...result('1.3 x 10^3'), standardPlateCountRemarks: 'negative', standardPlateCountAnalysisDate: '2026-03-16' })).status).toBe(200);
    await step();
    // Release is signed with the staff member's password (issue 14).
    expect((await staff.http.put(`/requests/approveRelease/${requestId}`, { password: TEST_PASSWORD })).status).toBe(200);

    // A second journey ends in a rejection at release, with the desk's reason.
    await step();
    rejectedId = await submit();
    await step();
    expect((await staff.http.put(`/requests/approve/${rejectedId}`)).status).toBe(200);
    await step();
    const [rejectedSample] = (await staff.http.get(`/request/${rejectedId}`)).body;
    expect((await tester.http.put(`/microbioTestResults/${rejectedSample.sampleId}`, { ...result('9.9 x 10^9'), standardPlateCountRemarks: 'positive', standardPlateCountAnalysisDate: '2026-03-16' })).status).toBe(200);
    await step();
    expect((await staff.http.put(`/requests/reject/${rejectedId}`, { reason: 'Sample container arrived open.' })).status).toBe(200);
    await app.sendQueuedMail();
  });
  afterAll(() => app?.close());

  it('tells staff every event in order, each with its actor, results with before and after', async () => {
    const res = await staff.http.get(`/requests/timeline/${requestId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ requestId, controlNumber: '2026-0001', requestStatus: 'RELEASED' });
    const events = res.body.events as Array<{ kind: string; actor: string | null; detail: string | null; before?: string; after?: string; at: string }>;
    expect(events.map((e) => [e.kind, e.actor])).toEqual([
      ['submitted', 'Carl Client (client)'],
      ['question', 'Rosa Reyes (staff)'],
      ['mail', 'Rosa Reyes (staff)'],
      ['reply', 'Carl Client (client)'],
      ['approved', 'Rosa Reyes (staff)'],
      ['mail', 'Rosa Reyes (staff)'],
      ['received', 'Rosa Reyes (staff)'],
      ['result', 'Tess Tester (microbiotester)'],
      ['result', 'Tess Tester (microbiotester)'],
      ['completed', 'Tess Tester (microbiotester)'],
      ['released', 'Rosa Reyes (staff)'],
      ['mail', 'Rosa Reyes (staff)'],
    ]);
    expect(events.map((e) => e.at)).toEqual([...events.map((e) => e.at)].sort());
    expect(events[1].detail).toBe('How were the samples kept?');
    expect(events[3].detail).toBe('Chilled at 4 °C.');
    expect(events[4].detail).toBe('Control number 2026-0001');
    expect(events[5].detail).toContain('control number 2026-0001');
    expect(events[6].detail).toBe('1 container, Acceptable, 3 °C; arrived 2026-03-16T09:04:00.000Z');
    expect(events[7]).toMatchObject({ detail: 'Standard/Aerobic Plate Count, sample 1', before: 'empty', after: "'1.2 x 10^3'" });
    expect(events[8]).toMatchObject({ before: "'1.2 x 10^3'", after: "'1.3 x 10^3', negative, analysed 2026-03-16" });
    expect(events[10].detail).toBe('Signed by Rosa Reyes: Results reviewed and approved for release');
  });

  it('tells who rejected a request and why, after its results', async () => {
    const res = await staff.http.get(`/requests/timeline/${rejectedId}`);
    expect(res.body.requestStatus).toBe('REJECTED');
    const events = res.body.events as Array<{ kind: string; actor: string | null; detail: string | null }>;
    expect(events.map((e) => [e.kind, e.actor])).toEqual([
      ['submitted', 'Carl Client (client)'],
      ['approved', 'Rosa Reyes (staff)'],
      ['mail', 'Rosa Reyes (staff)'],
      ['result', 'Tess Tester (microbiotester)'],
      ['completed', 'Tess Tester (microbiotester)'],
      ['rejected', 'Rosa Reyes (staff)'],
      ['mail', 'Rosa Reyes (staff)'],
    ]);
    expect(events[5].detail).toBe('Sample container arrived open.');

    // The client reads the rejection and its reason, not the result the laboratory held back.
    const mine = await client.http.get(`/requests/timeline/${rejectedId}`);
    expect(mine.body.events.map((e: { kind: string; detail: string | null }) => [e.kind, e.detail])).toContainEqual(['rejected', 'Sample container arrived open.']);
    expect(mine.body.events.map((e: { kind: string }) => e.kind)).toEqual(['submitted', 'approved', 'mail', 'completed', 'rejected', 'mail']);
    expect(JSON.stringify(mine.body)).not.toContain('9.9 x 10^9');
  });

  it('shows the client its own timeline without the laboratory-only entries; others get 403', async () => {
    const res = await client.http.get(`/requests/timeline/${requestId}`);
    expect(res.status).toBe(200);
    expect(res.body.events.map((e: { kind: string }) => e.kind)).toEqual([
      'submitted', 'question', 'mail', 'reply', 'approved', 'mail', 'received', 'completed', 'released', 'mail',
    ]);
    expect(JSON.stringify(res.body)).not.toContain('1.2 x 10^3');
    for (const who of [otherClient, tester]) expect((await who.http.get(`/requests/timeline/${requestId}`)).status).toBe(403);
    expect((await otherClient.http.get('/requests/timeline/999999')).status).toBe(403);
    expect((await staff.http.get('/requests/timeline/999999')).status).toBe(404);
    expect((await staff.http.get('/requests/timeline/abc')).status).toBe(400);
    expect((await app.anonymous().get(`/requests/timeline/${requestId}`)).status).toBe(401);
  });
});
