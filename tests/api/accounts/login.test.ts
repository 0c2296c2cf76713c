import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_REFUSED, VERIFICATION_REFUSED } from '../../../server/services/accounts/login.js';
import { setDeletionStatus } from '../../../server/services/accounts/updates.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';
import { PASSWORD, codeFor, logIn, otherThan, registration } from './support.js';

describe(`login: POST /login, POST /verify-otp, GET /me, POST /logout (${databaseKind()})`, () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('mails a login code in plain text and HTML naming the laboratory, the code and its validity', async () => {
    const user = await app.createUser('client');
    const res = await app.anonymous().post(`/login?identifier=${encodeURIComponent(user.email)}&password=${encodeURIComponent(PASSWORD)}`);
    expect(res.status).toBe(200);
    const mail = await app.mailbox.waitFor(user.email, (m) => m.subject.includes('login code'));
    const code = mail.text.match(/\b(\d{6})\b/)![1];
    expect(mail.subject).toBe(`${app.config.labName}: Your login code`);
    expect(mail.text).toContain(app.config.labName);
    expect(mail.text).toContain('valid for 10 minutes');
    expect(mail.raw).toMatch(/Content-Type: text\/html/i);
    expect(mail.raw).toContain(code);
  });

  it('logs in by username too, answers userType/userId and opens a session', async () => {
    const user = await app.createUser('chemtester');
    const http = app.anonymous();
    const verify = await logIn(app, http, user.username!.toUpperCase(), user.email);
    expect(verify.status).toBe(200);
    expect(verify.text).toBe(`chemtester/${user.id}`);
    expect(verify.headers.get('set-cookie')).toMatch(/lab_session=.*httponly/i);
    const me = await http.get('/me');
    expect(me.body).toEqual({ id: user.id, role: 'chemtester', username: user.username, email: user.email, firstName: 'Test', lastName: 'Chemtester' });
  });

  it('refuses a wrong password and an unknown account with the same 401 message', async () => {
    const user = await app.createUser('client');
    const wrong = await app.anonymous().post('/login', { identifier: user.email, password: 'not the password' });
    const unknown = await app.anonymous().post('/login', { identifier: 'nobody@example.test', password: PASSWORD });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.body).toEqual({ message: LOGIN_REFUSED });
    expect(unknown.body).toEqual({ message: LOGIN_REFUSED });
  });

  it('names every missing field of POST /login', async () => {
    const res = await app.anonymous().post('/login', {});
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('identifier');
    expect(res.body.message).toContain('password');
  });

  it('refuses an unverified registration until its e-mail is verified', async () => {
    const body = registration();
    expect((await app.anonymous().post('/clients', body)).status).toBe(201);
    const login = await app.anonymous().post('/login', { identifier: body.user.email, password: PASSWORD });
    expect(login.status).toBe(401);
    expect(login.body.message).toBe(LOGIN_REFUSED);
  });

  describe('the login code', () => {
    async function pendingLogin() {
      const user = await app.createUser('client');
      const http = app.anonymous();
      expect((await http.post('/login', { identifier: user.email, password: PASSWORD })).status).toBe(200);
      return { user, http, code: await codeFor(app, user.email, 'login') };
    }

    it('is refused when wrong, with the spec message and no session', async () => {
      const { user, http, code } = await pendingLogin();
      const res = await http.post('/verify-otp', { username: user.email, otp: otherThan(code) });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: VERIFICATION_REFUSED });
      expect((await http.get('/me')).status).toBe(401);
    });

    it('expires after 10 minutes', async () => {
      const { user, http, code } = await pendingLogin();
      app.clock.advanceMinutes(11);
      const res = await http.post('/verify-otp', { username: user.email, otp: code });
      expect(res.status).toBe(401);
    });

    it('is void after 5 wrong tries: the sixth try fails even with the right code', async () => {
      const { user, http, code } = await pendingLogin();
      for (let i = 0; i < 5; i += 1) {
        expect((await http.post('/verify-otp', { username: user.email, otp: otherThan(code) })).status).toBe(401);
      }
      const sixth = await http.post('/verify-otp', { username: user.email, otp: code });
      expect(sixth.status).toBe(401);
      expect(sixth.body.message).toBe(VERIFICATION_REFUSED);
    });

    it('works once only', async () => {
      const { user, http, code } = await pendingLogin();
      expect((await http.post('/verify-otp', { username: user.email, otp: code })).status).toBe(200);
      expect((await app.anonymous().post('/verify-otp', { username: user.email, otp: code })).status).toBe(401);
    });

    it('is voided by a newer code', async () => {
      const { user, http, code: first } = await pendingLogin();
      expect((await http.post('/login', { identifier: user.email, password: PASSWORD })).status).toBe(200);
      const second = await codeFor(app, user.email, 'login');
      if (second !== first) expect((await http.post('/verify-otp', { username: user.email, otp: first })).status).toBe(401);
      expect((await http.post('/verify-otp', { username: user.email, otp: second })).status).toBe(200);
    });

    it('cannot be replaced by a code of another purpose', async () => {
      const { user, http } = await pendingLogin();
      expect((await app.anonymous().get(`/check-user?identifier=${encodeURIComponent(user.email)}`)).status).toBe(200);
      const resetCode = await codeFor(app, user.email, 'reset');
      expect((await http.post('/verify-otp', { username: user.email, otp: resetCode })).status).toBe(401);
    });

    it('of an unknown account is refused like a wrong one', async () => {
      const res = await app.anonymous().post('/verify-otp', { username: 'nobody@example.test', otp: '123456' });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe(VERIFICATION_REFUSED);
    });
  });

  describe('sessions', () => {
    it('end after an hour without calls (idle expiry)', async () => {
      const { http } = await app.signedIn('client');
      app.clock.advanceMinutes(59);
      expect((await http.get('/me')).status).toBe(200);
      app.clock.advanceMinutes(61);
      expect((await http.get('/me')).status).toBe(401);
    });

    it('end after 12 hours even when used all along (absolute expiry)', async () => {
      const { http } = await app.signedIn('staff');
      for (let hour = 0; hour < 11; hour += 1) {
        app.clock.advanceMinutes(50);
        expect((await http.get('/me')).status).toBe(200);
      }
      app.clock.advanceMinutes(12 * 60 - 11 * 50);
      expect((await http.get('/me')).status).toBe(401);
    });

    it('refresh the last-seen time with one row write when many calls of a session arrive at once after a minute', async () => {
      const { http, user } = await app.signedIn('staff');
      app.clock.advanceMinutes(2);
      // Each call has seen the session as last seen two minutes ago: one of them writes the new time,
      // the others find it written (on PostgreSQL they would otherwise queue on the row's lock, one
      // commit after another).
      let written = 0;
      const onResponse = (changed: unknown, query: { sql: string }) => {
        if (/^update [`"]sessions[`"]/.test(query.sql) && Number(changed) > 0) written += 1;
      };
      app.db.on('query-response', onResponse);
      try {
        const answers = await Promise.all(Array.from({ length: 10 }, () => http.get('/me')));
        expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      } finally {
        app.db.removeListener('query-response', onResponse);
      }
      expect(written).toBe(1);
      const row = await app.db('sessions').where({ user_id: user.id }).first('last_seen_at');
      expect(row.last_seen_at).toBe(app.clock.now().toISOString());
    });

    it('end on log out, and the cookie is cleared', async () => {
      const user = await app.createUser('client');
      const http = app.anonymous();
      expect((await logIn(app, http, user.email, user.email)).status).toBe(200);
      const stolen = http.clone();
      const out = await http.post('/logout');
      expect(out.status).toBe(204);
      expect(http.cookie('lab_session')).toBeUndefined();
      expect((await stolen.get('/me')).status).toBe(401);
    });
  });

  it('a disabled user loses its sessions and can no longer log in or finish a login', async () => {
    const { user, http } = await app.signedIn('client');
    const other = app.anonymous();
    expect((await other.post('/login', { identifier: user.email, password: PASSWORD })).status).toBe(200);
    const code = await codeFor(app, user.email, 'login');

    await setDeletionStatus(app.db, app.clock, user.id, 'DISABLED');
    expect((await http.get('/me')).status).toBe(401);
    expect((await other.post('/verify-otp', { username: user.email, otp: code })).status).toBe(401);
    const again = await app.anonymous().post('/login', { identifier: user.email, password: PASSWORD });
    expect(again.status).toBe(401);
    expect(again.body.message).toBe(LOGIN_REFUSED);
  });
});
