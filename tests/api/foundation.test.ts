import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { databaseKind } from '../helpers/testDatabase.js';

describe(`foundation (${databaseKind()})`, () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('answers /healthz while alive and /readyz once the database is reachable and migrated', async () => {
    const health = await app.anonymous().get('/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    const ready = await app.anonymous().get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
  });

  it('sends security headers with a strict content security policy', async () => {
    const res = await app.anonymous().get('/healthz');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers unknown calls and bad JSON with a 4xx and a message, never a stack', async () => {
    const unknown = await app.anonymous().post('/no-such-call', {});
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'No such call: POST /no-such-call' });
    const bad = await app.anonymous().post('/login', '{"identifier":', { 'content-type': 'application/json' });
    expect(bad.status).toBe(400);
    expect(typeof bad.body.message).toBe('string');
    expect(bad.text).not.toMatch(/at .*\.ts:\d+/);
  });

  it('lists every invalid field in one message', async () => {
    const res = await app.anonymous().post('/verify-otp', { username: '', otp: '12' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('username');
    expect(res.body.message).toContain('otp');
  });

  it('refuses a state-changing call from another site', async () => {
    const res = await app.anonymous().post('/logout', undefined, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/another site/);
  });

  it('serves GET /me only with a session, and ends it on log out', async () => {
    expect((await app.anonymous().get('/me')).status).toBe(401);
    const { user, http } = await app.signedIn('staff');
    const me = await http.get('/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: user.id, role: 'staff', email: user.email });
    const stale = http.clone();
    expect((await http.post('/logout')).status).toBe(204);
    expect((await stale.get('/me')).status).toBe(401);
  });

  it('logs in with password then e-mailed code, and answers userType/userId', async () => {
    const user = await app.createUser('client', { password: 'a long password' });
    const http = app.anonymous();
    const login = await http.post('/login', { identifier: user.email, password: 'a long password' });
    expect(login.status).toBe(200);
    const code = await app.mailbox.codeFor(user.email, 'login code');
    const verify = await http.post(`/verify-otp?username=${encodeURIComponent(user.email)}&otp=${code}`);
    expect(verify.status).toBe(200);
    expect(verify.text).toBe(`client/${user.id}`);
    expect((await http.get('/me')).body.id).toBe(user.id);
  });

  it('never writes passwords or codes to the log', async () => {
    const user = await app.createUser('client', { password: 'SuperSecret-123' });
    const http = app.anonymous();
    await http.post(`/login?identifier=${encodeURIComponent(user.email)}&password=SuperSecret-123`);
    const code = await app.mailbox.codeFor(user.email);
    await http.post('/verify-otp', { username: user.email, otp: code });
    const logs = app.logLines.join('\n');
    expect(logs).toContain('/login?identifier=');
    expect(logs).not.toContain('SuperSecret-123');
    expect(logs).not.toContain(code);
  });

  it('refuses a wrong password without telling whether the account exists', async () => {
    const user = await app.createUser('client');
    const wrong = await app.anonymous().post('/login', { identifier: user.email, password: 'nope' });
    const unknown = await app.anonymous().post('/login', { identifier: 'nobody@example.test', password: 'nope' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.message).toBe(unknown.body.message);
  });
});
