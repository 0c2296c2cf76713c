import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../../fixtures/requests.js';
import { outboxStatus } from '../../../server/db/outbox.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { extractCode } from '../../helpers/mailbox.js';
import { databaseKind } from '../../helpers/testDatabase.js';

describe(`mail outbox (${databaseKind()})`, () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  const rows = () => app.db('outbox').orderBy('id').select('id', 'recipient', 'subject', 'state', 'attempts', 'last_error', 'text_body');
  const arrivedTo = (email: string, after: number) => app.mailbox.messages.filter((m) => m.index >= after && m.recipients.includes(email));

  it('keeps the mail of an SMTP outage and sends each one once when the server is back', async () => {
    const staff = await app.signedIn('staff');
    const client = await app.createUser('client');
    const requests = await insertRequests(app.db, [1, 2, 3].map(() => ({ clientUserId: client.id, tests: ['eColi'] })));
    const loginUser = await app.createUser('client');
    const mark = app.mailbox.mark();
    const before = (await rows()).length;

    await app.mailbox.stop();
    for (const r of requests) expect((await staff.http.put(`/requests/approve/${r.requestId}`)).status).toBe(200);
    const browser = app.anonymous();
    const login = await browser.post('/login', { identifier: loginUser.email, password: 'correct horse battery' });
    expect(login.status).toBe(200);

    // Committed with the changes, tried, and waiting for a retry.
    const waiting = (await rows()).slice(before);
    expect(waiting.map((r) => r.recipient).sort()).toEqual([client.email, client.email, client.email, loginUser.email].sort());
    expect(waiting.every((r) => r.state === 'pending' && r.attempts >= 1 && r.last_error)).toBe(true);
    const status = await outboxStatus(app.db);
    expect(status.counts.pending).toBe(4);
    expect(status.oldestPendingAt).not.toBeNull();
    expect(status.lastError?.error).toMatch(/ECONNREFUSED|connect/i);
    expect(arrivedTo(client.email, mark)).toEqual([]);

    await app.mailbox.restart();
    const code = extractCode((await app.mailbox.waitFor(loginUser.email, (m) => m.subject.includes('login code'), { after: mark })).text);
    for (const n of ['0001', '0002', '0003']) await app.mailbox.waitFor(client.email, (m) => m.text.includes(`-${n}`), { after: mark });
    const verified = await browser.post('/verify-otp', { username: loginUser.email, otp: code });
    expect(verified.status).toBe(200);

    // Every queued mail was sent exactly once, and none holds its text (a code) any longer.
    await expect.poll(async () => (await rows()).slice(before).map((r) => r.state)).toEqual(['sent', 'sent', 'sent', 'sent']);
    expect(arrivedTo(client.email, mark)).toHaveLength(3);
    expect(new Set(arrivedTo(client.email, mark).map((m) => m.subject)).size).toBe(3);
    expect(arrivedTo(loginUser.email, mark)).toHaveLength(1);
    expect((await rows()).slice(before).every((r) => r.text_body === '')).toBe(true);
  });

  it('queues no mail for a change that did not happen', async () => {
    const staff = await app.signedIn('staff');
    const client = await app.createUser('client');
    const [request] = await insertRequests(app.db, [{ clientUserId: client.id, tests: ['eColi'] }]);
    expect((await staff.http.put(`/requests/approve/${request.requestId}`)).status).toBe(200);
    const count = (await rows()).length;
    expect((await staff.http.put(`/requests/approve/${request.requestId}`)).status).toBe(409);
    expect((await app.anonymous().post('/login', { identifier: client.email, password: 'wrong password!' })).status).toBe(401);
    expect(await rows()).toHaveLength(count);
  });
});
