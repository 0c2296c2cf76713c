import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../../fixtures/requests.js';
import type { User } from '../../../server/services/users.js';
import type { HttpClient } from '../../helpers/httpClient.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

describe(`additional information (${databaseKind()})`, () => {
  let app: TestApp;
  let staff: { user: User; http: HttpClient };
  let owner: { user: User; http: HttpClient };
  let stranger: { user: User; http: HttpClient };

  beforeAll(async () => {
    app = await startTestApp();
    staff = await app.signedIn('staff');
    owner = await app.signedIn('client');
    stranger = await app.signedIn('client');
  });
  afterAll(() => app?.close());

  const pending = async () => (await insertRequests(app.db, [{ clientUserId: owner.user.id, tests: ['eColi'] }]))[0].requestId;
  const path = (requestId: number) => `/requests/messages/${requestId}`;

  it('staff ask, the client is e-mailed, reads the question and replies; staff read the reply', async () => {
    const requestId = await pending();
    const question = 'Please state the storage temperature of the samples, and whether they were frozen <before> shipping.';
    const asked = await staff.http.post(path(requestId), { body: `  ${question}\n` });
    expect(asked.status).toBe(201);
    expect(asked.body).toMatchObject({ requestId, kind: 'question', body: question });

    const mail = await app.mailbox.waitFor(owner.user.email, (m) => m.subject.includes('additional information'));
    expect(mail.text).toContain(question);
    expect(mail.text).toContain(`request ${requestId}`);
    await app.sendQueuedMail(); // the worker records 'mail.sent' once the mail server took it

    const seen = await owner.http.get(path(requestId));
    expect(seen.status).toBe(200);
    expect(seen.body.map((m: { kind: string; body: string }) => [m.kind, m.body])).toEqual([['question', question]]);

    const replied = await owner.http.post(path(requestId), { body: 'Kept at 4 °C, never frozen.' });
    expect(replied.status).toBe(201);
    expect(replied.body.kind).toBe('reply');

    const thread = await staff.http.get(path(requestId));
    expect(thread.body.map((m: { kind: string; body: string }) => [m.kind, m.body])).toEqual([
      ['question', question],
      ['reply', 'Kept at 4 °C, never frozen.'],
    ]);
    const audit = await app.db('audit_log').where('request_id', requestId).orderBy('id').pluck('action');
    expect(audit).toEqual(['request.ask-info', 'mail.sent', 'request.reply']);
  });

  it('only while the request is pending review', async () => {
    const [testing] = await insertRequests(app.db, [{ clientUserId: owner.user.id, tests: ['eColi'], status: 'FOR_TESTING' }]);
    const res = await staff.http.post(path(testing.requestId), { body: 'Anything?' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Additional information can only be exchanged while a request is PENDING REVIEW; this one is FOR TESTING.');
  });

  it('a client cannot write before the laboratory asked', async () => {
    const requestId = await pending();
    const res = await owner.http.post(path(requestId), { body: 'Hello?' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('The laboratory has not asked for additional information about this request.');
  });

  it('refuses empty and overlong messages, listing the problem', async () => {
    const requestId = await pending();
    for (const body of [{ body: '   ' }, {}, { body: 'x'.repeat(2001) }, { body: 42 }]) {
      const res = await staff.http.post(path(requestId), body);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^body: /);
    }
  });

  it('another client and the testers can neither read nor write; anonymous must log in', async () => {
    const requestId = await pending();
    await staff.http.post(path(requestId), { body: 'Which lot?' });
    expect((await stranger.http.get(path(requestId))).status).toBe(403);
    expect((await stranger.http.post(path(requestId), { body: 'Lot 7' })).status).toBe(403);
    for (const role of ['chemtester', 'microbiotester', 'molbiotester'] as const) {
      const tester = await app.signedIn(role);
      expect((await tester.http.get(path(requestId))).status).toBe(403);
      expect((await tester.http.post(path(requestId), { body: 'Hi' })).status).toBe(403);
    }
    expect((await app.anonymous().get(path(requestId))).status).toBe(401);
    // a client probing a request id that does not exist learns nothing
    expect((await stranger.http.get(path(999999))).status).toBe(403);
    expect((await staff.http.get(path(999999))).status).toBe(404);
  });
});
