import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_REFUSED } from '../../../server/services/accounts/login.js';
import { NOT_IN_SYSTEM, RESET_CODE_REFUSED, RESET_NOT_VERIFIED } from '../../../server/services/accounts/passwordReset.js';
import { setDeletionStatus } from '../../../server/services/accounts/updates.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';
import { PASSWORD, codeFor, logIn, otherThan, registration } from './support.js';

const NEW_PASSWORD = 'a brand new passphrase';

describe(`password reset: GET /check-user, POST /verify-otp-password, POST /change-password (${databaseKind()})`, () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  const checkUser = (identifier: string) => app.anonymous().get(`/check-user?identifier=${encodeURIComponent(identifier)}`);

  /** check-user, then the mailed code through verify-otp-password: a browser holding the reset grant. */
  async function granted(email: string) {
    expect((await checkUser(email)).status).toBe(200);
    const http = app.anonymous();
    const res = await http.post('/verify-otp-password', { email, otp: await codeFor(app, email, 'reset') });
    expect(res.status).toBe(200);
    return http;
  }

  it('resets a password end to end: mail, code, grant cookie, new password, old sessions ended', async () => {
    const { user, http: oldSession } = await app.signedIn('client');
    const check = await checkUser(user.email.toUpperCase());
    expect(check.status).toBe(200);
    const mail = await app.mailbox.waitFor(user.email, (m) => m.subject.includes('password reset code'));
    expect(mail.text).toContain(app.config.labName);
    expect(mail.text).toContain('valid for 10 minutes');

    const http = app.anonymous();
    const verify = await http.post(`/verify-otp-password?email=${encodeURIComponent(user.email)}&otp=${await codeFor(app, user.email, 'reset')}`);
    expect(verify.status).toBe(200);
    const cookie = verify.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^lab_reset=[\w-]{40,};/);
    expect(cookie).toMatch(/httponly/i);
    expect(cookie).toMatch(/samesite=strict/i);
    expect(cookie).toMatch(/path=\/change-password/i);

    const change = await http.post(`/change-password?email=${encodeURIComponent(user.email)}&newPassword=${encodeURIComponent(NEW_PASSWORD)}`);
    expect(change.status).toBe(200);
    expect(http.cookie('lab_reset')).toBeUndefined();
    expect((await oldSession.get('/me')).status).toBe(401);

    expect((await app.anonymous().post('/login', { identifier: user.email, password: PASSWORD })).body.message).toBe(LOGIN_REFUSED);
    expect((await logIn(app, app.anonymous(), user.email, user.email, NEW_PASSWORD)).status).toBe(200);
    const row = await app.db('users').where({ id: user.id }).first('password_hash');
    expect(row.password_hash).not.toContain(NEW_PASSWORD);
  });

  it('never writes the reset code, the grant or the new password to the log', async () => {
    const user = await app.createUser('client');
    expect((await checkUser(user.email)).status).toBe(200);
    const code = await codeFor(app, user.email, 'reset');
    const http = app.anonymous();
    expect((await http.post(`/verify-otp-password?email=${encodeURIComponent(user.email)}&otp=${code}`)).status).toBe(200);
    const grant = http.cookie('lab_reset')!;
    const secret = 'Secret-New-Pass-9';
    expect((await http.post(`/change-password?email=${encodeURIComponent(user.email)}&newPassword=${secret}`)).status).toBe(200);
    const logs = app.logLines.join('\n');
    expect(logs).toContain('/change-password?email=');
    for (const leaked of [code, grant, secret]) expect(logs).not.toContain(leaked);
  });

  describe('GET /check-user', () => {
    it('answers 404 for an unknown or disabled account and mails nothing', async () => {
      const unknown = await checkUser('nobody@example.test');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ message: NOT_IN_SYSTEM });
      const user = await app.createUser('client');
      await setDeletionStatus(app.db, app.clock, user.id, 'DISABLED');
      expect((await checkUser(user.email)).status).toBe(404);
      expect(app.mailbox.messages.filter((m) => m.to === user.email)).toEqual([]);
    });

    it('names a missing identifier', async () => {
      const res = await app.anonymous().get('/check-user');
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('identifier');
    });
  });

  describe('POST /verify-otp-password', () => {
    it('refuses a wrong code with the spec message, and gives no grant', async () => {
      const user = await app.createUser('client');
      expect((await checkUser(user.email)).status).toBe(200);
      const http = app.anonymous();
      const res = await http.post('/verify-otp-password', { email: user.email, otp: otherThan(await codeFor(app, user.email, 'reset')) });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: RESET_CODE_REFUSED });
      expect(http.cookie('lab_reset')).toBeUndefined();
    });

    it('refuses an expired code, a used code and a login code', async () => {
      const user = await app.createUser('client');
      expect((await checkUser(user.email)).status).toBe(200);
      const code = await codeFor(app, user.email, 'reset');
      expect((await app.anonymous().post('/verify-otp-password', { email: user.email, otp: code })).status).toBe(200);
      expect((await app.anonymous().post('/verify-otp-password', { email: user.email, otp: code })).status).toBe(401);

      expect((await checkUser(user.email)).status).toBe(200);
      const late = await codeFor(app, user.email, 'reset');
      app.clock.advanceMinutes(11);
      expect((await app.anonymous().post('/verify-otp-password', { email: user.email, otp: late })).status).toBe(401);

      expect((await app.anonymous().post('/login', { identifier: user.email, password: PASSWORD })).status).toBe(200);
      const loginCode = await codeFor(app, user.email, 'login');
      expect((await app.anonymous().post('/verify-otp-password', { email: user.email, otp: loginCode })).status).toBe(401);
    });

    it('verifies the e-mail of an unverified registration, which can then log in', async () => {
      const body = registration();
      expect((await app.anonymous().post('/clients', body)).status).toBe(201);
      const http = await granted(body.user.email);
      expect((await http.post('/change-password', { email: body.user.email, newPassword: NEW_PASSWORD })).status).toBe(200);
      expect((await logIn(app, app.anonymous(), body.user.email, body.user.email, NEW_PASSWORD)).status).toBe(200);
    });
  });

  describe('POST /change-password', () => {
    it('is refused without a reset grant', async () => {
      const user = await app.createUser('client');
      const res = await app.anonymous().post('/change-password', { email: user.email, newPassword: NEW_PASSWORD });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: RESET_NOT_VERIFIED });
      expect((await logIn(app, app.anonymous(), user.email, user.email)).status).toBe(200);
    });

    it('is refused with a made-up grant or the grant of another account', async () => {
      const victim = await app.createUser('client');
      const attacker = await app.createUser('client');
      const forged = app.anonymous();
      forged.setCookie('lab_reset', 'made-up-token');
      expect((await forged.post('/change-password', { email: victim.email, newPassword: NEW_PASSWORD })).status).toBe(403);
      const http = await granted(attacker.email);
      expect((await http.post('/change-password', { email: victim.email, newPassword: NEW_PASSWORD })).status).toBe(403);
    });

    it('uses the grant once, and the grant expires after 10 minutes', async () => {
      const user = await app.createUser('client');
      const http = await granted(user.email);
      const replay = http.clone();
      expect((await http.post('/change-password', { email: user.email, newPassword: NEW_PASSWORD })).status).toBe(200);
      expect((await replay.post('/change-password', { email: user.email, newPassword: 'yet another password' })).status).toBe(403);

      const late = await granted(user.email);
      app.clock.advanceMinutes(11);
      expect((await late.post('/change-password', { email: user.email, newPassword: 'yet another password' })).status).toBe(403);
    });

    it('validates the new password before using up the grant', async () => {
      const user = await app.createUser('client');
      const http = await granted(user.email);
      const short = await http.post('/change-password', { email: user.email, newPassword: 'short' });
      expect(short.status).toBe(400);
      expect(short.body.message).toContain('newPassword');
      expect((await http.post('/change-password', { email: user.email, newPassword: NEW_PASSWORD })).status).toBe(200);
    });
  });
});
