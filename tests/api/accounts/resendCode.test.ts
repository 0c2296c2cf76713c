import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';
import { PASSWORD, codeFor, registration } from './support.js';

describe(`POST /resend-code (${databaseKind()})`, () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  const resend = (purpose: string, identifier: string) => app.anonymous().post('/resend-code', { purpose, identifier });
  const mailsTo = (email: string) => app.mailbox.messages.filter((m) => m.to === email).length;

  it('sends a new login code 60 seconds after the last one, voiding the old code', async () => {
    const user = await app.createUser('client');
    const http = app.anonymous();
    expect((await http.post('/login', { identifier: user.email, password: PASSWORD })).status).toBe(200);
    const first = await codeFor(app, user.email, 'login');

    app.clock.advanceMinutes(0.5);
    const early = await resend('login', user.email);
    expect(early.status).toBe(429);
    expect(early.body.message).toBe('Please wait 30 seconds before asking for a new code.');

    app.clock.advanceMinutes(0.5);
    const sent = mailsTo(user.email);
    expect((await resend('login', user.username!)).status).toBe(200);
    expect(mailsTo(user.email)).toBe(sent + 1);
    const second = await codeFor(app, user.email, 'login');
    if (second !== first) expect((await http.post('/verify-otp', { username: user.email, otp: first })).status).toBe(401);
    expect((await http.post('/verify-otp', { username: user.email, otp: second })).status).toBe(200);
  });

  it('sends no login code without a login waiting for one', async () => {
    const user = await app.createUser('client');
    const res = await resend('login', user.email);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/log in again/);
    expect(mailsTo(user.email)).toBe(0);
  });

  it('sends a registration code to an unverified account only', async () => {
    const body = registration();
    expect((await app.anonymous().post('/clients', body)).status).toBe(201);
    app.clock.advanceMinutes(1);
    expect((await resend('register', body.user.email)).status).toBe(200);
    const code = await codeFor(app, body.user.email, 'register');
    expect((await app.anonymous().post('/clientverify', { email: body.user.email, otp: code })).status).toBe(200);
    app.clock.advanceMinutes(1);
    expect((await resend('register', body.user.email)).status).toBe(400);
  });

  it('sends a reset code to a known account and refuses an unknown one', async () => {
    const user = await app.createUser('staff');
    expect((await resend('reset', user.email)).status).toBe(200);
    expect(await codeFor(app, user.email, 'reset')).toMatch(/^\d{6}$/);
    const unknown = await resend('reset', 'nobody@example.test');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('This e-mail is not in the system.');
  });

  it('names bad fields', async () => {
    const res = await app.anonymous().post('/resend-code', { purpose: 'sms' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('purpose: use one of login, register, reset');
    expect(res.body.message).toContain('identifier');
  });
});
