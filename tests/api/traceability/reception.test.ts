import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests, type RequestSeed } from '../../../fixtures/requests.js';
import type { User } from '../../../server/services/users.js';
import type { HttpClient } from '../../helpers/httpClient.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

describe(`sample reception (${databaseKind()})`, () => {
  let app: TestApp;
  let staff: { user: User; http: HttpClient };
  let client: { user: User; http: HttpClient };
  let otherClient: { user: User; http: HttpClient };
  let microbiotester: { user: User; http: HttpClient };

  beforeAll(async () => {
    app = await startTestApp();
    app.clock.set('2026-03-16T09:00:00.000Z');
    staff = await app.signedIn('staff', { firstName: 'Rosa', lastName: 'Reyes' });
    client = await app.signedIn('client');
    otherClient = await app.signedIn('client');
    microbiotester = await app.signedIn('microbiotester');
  });
  afterAll(() => app?.close());

  const one = async (s: Partial<RequestSeed> = {}) =>
    (await insertRequests(app.db, [{ clientUserId: client.user.id, tests: ['standardPlateCount'], status: 'FOR_TESTING', ...s }]))[0];
  const receive = (http: HttpClient, requestId: number, body: unknown) => http.post(`/requests/receive/${requestId}`, body);
  const good = { receivedAt: '2026-03-16T08:30:00+08:00', containers: 2, condition: 'acceptable', temperatureC: 4.5 };

  it('records the receipt once, audits it, and the client reads it on its own request', async () => {
    const { requestId } = await one();
    const res = await receive(staff.http, requestId, good);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      requestId,
      receivedAt: '2026-03-16T00:30:00.000Z',
      receivedBy: staff.user.id,
      receivedByName: 'Rosa Reyes',
      containers: 2,
      condition: 'acceptable',
      reason: null,
      temperatureC: 4.5,
      temperatureFlagged: false,
      flagged: false,
    });
    const audit = await app.db('audit_log').where({ request_id: requestId, action: 'request.receive' }).first();
    expect(Number(audit.actor_user_id)).toBe(staff.user.id);
    expect(JSON.parse(audit.details).after).toMatchObject({ containers: 2, condition: 'acceptable', temperatureC: 4.5 });

    const again = await receive(staff.http, requestId, good);
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already been received/);

    const read = await client.http.get(`/requests/receipt/${requestId}`);
    expect(read.status).toBe(200);
    expect(read.body.receipt).toMatchObject({ containers: 2, condition: 'acceptable' });
    expect((await otherClient.http.get(`/requests/receipt/${requestId}`)).status).toBe(403);
  });

  it('flags a not-acceptable receipt and a temperature above 10 °C to the tester and the client', async () => {
    const { requestId } = await one();
    const res = await receive(staff.http, requestId, { ...good, condition: 'not-acceptable', reason: 'Leaking bag', temperatureC: 12 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ condition: 'not-acceptable', reason: 'Leaking bag', temperatureFlagged: true, flagged: true });

    const list = await microbiotester.http.get('/requests/for-testing');
    const row = list.body.find((r: { requestId: number }) => r.requestId === requestId);
    expect(row.receipt).toMatchObject({ condition: 'not-acceptable', reason: 'Leaking bag', temperatureC: 12, flagged: true });
    expect((await client.http.get(`/requests/receipt/${requestId}`)).body.receipt).toMatchObject({ flagged: true, reason: 'Leaking bag' });
  });

  it('answers 10 °C as within the limit, and a request not yet received as null', async () => {
    const { requestId } = await one();
    expect((await client.http.get(`/requests/receipt/${requestId}`)).body).toEqual({ receipt: null });
    const res = await receive(staff.http, requestId, { ...good, temperatureC: 10 });
    expect(res.body).toMatchObject({ temperatureC: 10, temperatureFlagged: false, flagged: false });
  });

  it('refuses bad input with every problem named (400)', async () => {
    const { requestId } = await one();
    const res = await receive(staff.http, requestId, { receivedAt: 'yesterday', containers: 0, condition: 'not-acceptable', temperatureC: 'warm' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/receivedAt: must be a date and time/);
    expect(res.body.message).toMatch(/containers: must be at least 1/);
    expect(res.body.message).toMatch(/temperatureC: must be a number/);
    const noReason = await receive(staff.http, requestId, { ...good, condition: 'not-acceptable', reason: '  ' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toMatch(/reason: say why the samples are not acceptable/);
    expect((await receive(staff.http, requestId, { ...good, condition: 'broken' })).body.message).toMatch(/condition: must be acceptable or not-acceptable/);
    expect(await app.db('sample_receipts').where('request_id', requestId).first()).toBeUndefined();
  });

  it('is for staff and admins only, after approval and before a final status', async () => {
    const { requestId } = await one();
    expect((await app.anonymous().post(`/requests/receive/${requestId}`, good)).status).toBe(401);
    for (const who of [client, microbiotester]) expect((await receive(who.http, requestId, good)).status).toBe(403);
    const admin = await app.signedIn('admin');
    expect((await receive(admin.http, requestId, good)).status).toBe(201);

    for (const status of ['PENDING_REVIEW', 'RELEASED', 'REJECTED'] as const) {
      const other = await one({ status });
      const res = await receive(staff.http, other.requestId, good);
      expect(res.status).toBe(409);
      expect(res.body.message).toMatch(/after approval and before release/);
    }
    expect((await receive(staff.http, 999999, good)).status).toBe(404);
  });
});
