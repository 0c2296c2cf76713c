import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERIFICATION_REFUSED } from '../../../server/services/accounts/login.js';
import { hashPassword, PASSWORD_HASH_COST, verifyPassword } from '../../../server/services/secrets.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';
import { PASSWORD, codeFor, logIn, otherThan, registration } from './support.js';

describe(`registration: POST /clients, POST /clientverify, GET /clientview/{userId} (${databaseKind()})`, () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('registers a client, mails the code, verifies it, and the client logs in and sees its profile', async () => {
    const body = registration();
    const created = await app.anonymous().post('/clients', body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email: body.user.email, userId: expect.any(Number) });

    const mail = await app.mailbox.waitFor(body.user.email, (m) => m.subject.includes('Verify your e-mail'));
    expect(mail.text).toContain(app.config.labName);
    expect(mail.text).toContain('to complete your registration');
    const code = await codeFor(app, body.user.email, 'register');
    const verified = await app.anonymous().post(`/clientverify?email=${encodeURIComponent(body.user.email)}&otp=${code}`);
    expect(verified.status).toBe(200);

    const http = app.anonymous();
    const login = await logIn(app, http, body.user.username!, body.user.email);
    expect(login.text).toBe(`client/${created.body.userId}`);
    const logs = app.logLines.join('\n');
    for (const secret of [PASSWORD, code]) expect(logs).not.toContain(secret);
    const profile = await http.get(`/clientview/${created.body.userId}`);
    expect(profile.status).toBe(200);
    expect(profile.body).toEqual({
      username: body.user.username,
      contactNumber: '639175550101',
      email: body.user.email,
      companyName: 'Villanueva Meats',
      ltoNumber: 'LTO-77',
      classification: 'Meat Dealer',
      // Optional at registration (the certificate prints it); this one gave none.
      address: null,
    });
  });

  it('keeps the free text of Others and accepts a registration without username or middle initial', async () => {
    const body = registration({ user: { username: '', middleName: '' }, client: { classification: 'Feed mill' } });
    const created = await app.anonymous().post('/clients', body);
    expect(created.status).toBe(201);
    const row = await app.db('users as u').join('clients as c', 'c.user_id', 'u.id').where('u.id', created.body.userId).first();
    expect(row).toMatchObject({ username: null, middle_name: null, classification: 'Feed mill', email_verified_at: null });
    // At the product's cost, whatever cost the test suites' own users are hashed at (helpers/testApp.ts).
    expect(row.password_hash.split('$').slice(0, 4)).toEqual(['scrypt', ...[PASSWORD_HASH_COST.N, PASSWORD_HASH_COST.r, PASSWORD_HASH_COST.p].map(String)]);
    expect(row.password_hash).not.toContain(PASSWORD);
  });

  it('answers 400 naming every bad field', async () => {
    const body = registration({
      user: { email: 'not-an-email', password: 'short', firstName: ' ', middleName: 'AB', contactNumber: '(+63) 917', username: 'a@b' },
      client: { ltoNo: 'ABCDEFGHIJKLM', companyName: '', classification: '' },
    });
    const res = await app.anonymous().post('/clients', body);
    expect(res.status).toBe(400);
    for (const field of [
      'user.email', 'user.password', 'user.firstName', 'user.middleName', 'user.contactNumber', 'user.username',
      'client.ltoNo', 'client.companyName', 'client.classification',
    ]) {
      expect(res.body.message).toContain(`${field}:`);
    }
    const missing = await app.anonymous().post('/clients', {});
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('user');
    expect(missing.body.message).toContain('client');
  });

  it('checks the LTO number after upper-casing it, and stores it folded', async () => {
    const long = await app.anonymous().post('/clients', registration({ client: { ltoNo: 'ß'.repeat(12) } }));
    expect(long.status).toBe(400);
    expect(long.body.message).toContain('client.ltoNo:');
    const body = registration({ client: { ltoNo: 'ｌｔｏ-ß1' } });
    const res = await app.anonymous().post('/clients', body);
    expect(res.status).toBe(201);
    expect(await app.db('clients').where({ user_id: res.body.userId }).first('lto_no')).toEqual({ lto_no: 'LTO-SS1' });
  });

  it('refuses to create anything but an active client', async () => {
    const admin = await app.anonymous().post('/clients', registration({ user: { userType: 'ADMIN' } }));
    expect(admin.status).toBe(400);
    expect(admin.body.message).toContain('user.userType: only client accounts can register');
    const disabled = await app.anonymous().post('/clients', registration({ user: { deletionStatus: 'DISABLED' } }));
    expect(disabled.status).toBe(400);
    expect(disabled.body.message).toContain('user.deletionStatus');
  });

  it('hashes the password it was sent, whatever hash the body carries', async () => {
    // createUser takes a ready hash from its own callers (demo accounts, fixtures); a body's is dropped.
    const planted = await hashPassword('a password the caller knows');
    const body = registration();
    expect((await app.anonymous().post('/clients', { ...body, user: { ...body.user, passwordHash: planted } })).status).toBe(201);
    const stored: string = (await app.db('users').where({ email: body.user.email.toLowerCase() }).first('password_hash')).password_hash;
    expect(stored).not.toBe(planted);
    expect(await verifyPassword(PASSWORD, stored)).toBe(true);
  });

  it('answers 409 with a clear message for a taken e-mail or username', async () => {
    const first = registration();
    expect((await app.anonymous().post('/clients', first)).status).toBe(201);
    const sameEmail = await app.anonymous().post('/clients', registration({ user: { email: first.user.email.toUpperCase() } }));
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toEqual({ message: 'An account with this e-mail already exists.' });
    const sameUsername = await app.anonymous().post('/clients', registration({ user: { username: first.user.username!.toUpperCase() } }));
    expect(sameUsername.status).toBe(409);
    expect(sameUsername.body).toEqual({ message: 'This username is already taken.' });
  });

  describe('POST /clientverify', () => {
    it('refuses a wrong code, an expired code and a code of another purpose', async () => {
      const body = registration();
      expect((await app.anonymous().post('/clients', body)).status).toBe(201);
      const code = await codeFor(app, body.user.email, 'register');
      const wrong = await app.anonymous().post('/clientverify', { email: body.user.email, otp: otherThan(code) });
      expect(wrong.status).toBe(401);
      expect(wrong.body.message).toBe(VERIFICATION_REFUSED);

      // a reset code is no registration code
      expect((await app.anonymous().get(`/check-user?identifier=${encodeURIComponent(body.user.email)}`)).status).toBe(200);
      const resetCode = await codeFor(app, body.user.email, 'reset');
      expect((await app.anonymous().post('/clientverify', { email: body.user.email, otp: resetCode })).status).toBe(401);

      app.clock.advanceMinutes(11);
      expect((await app.anonymous().post('/clientverify', { email: body.user.email, otp: code })).status).toBe(401);
    });

    it('refuses a second use of the code and an already verified account', async () => {
      const body = registration();
      expect((await app.anonymous().post('/clients', body)).status).toBe(201);
      const code = await codeFor(app, body.user.email, 'register');
      expect((await app.anonymous().post('/clientverify', { email: body.user.email, otp: code })).status).toBe(200);
      expect((await app.anonymous().post('/clientverify', { email: body.user.email, otp: code })).status).toBe(401);
    });

    it('names bad fields', async () => {
      const res = await app.anonymous().post('/clientverify', { otp: 'abc' });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/email:.*otp:|otp:.*email:/);
    });
  });

  describe('GET /clientview/{userId}', () => {
    it('shows a client its own profile only', async () => {
      const { user, http } = await app.signedIn('client', { companyName: 'Own Co', ltoNo: 'OWN-1', classification: 'Importer' });
      const other = await app.createUser('client');
      const own = await http.get(`/clientview/${user.id}`);
      expect(own.status).toBe(200);
      expect(own.body).toMatchObject({ email: user.email, companyName: 'Own Co', ltoNumber: 'OWN-1', classification: 'Importer' });

      const foreign = await http.get(`/clientview/${other.id}`);
      expect(foreign.status).toBe(403);
      expect(foreign.body.message).toBeTruthy();
      // the same answer for an id that does not exist: no way to probe for accounts
      expect((await http.get('/clientview/999999')).status).toBe(403);
    });

    it('lets staff and admins read any client profile; testers may not', async () => {
      const client = await app.createUser('client');
      for (const role of ['staff', 'admin'] as const) {
        const { http } = await app.signedIn(role);
        expect((await http.get(`/clientview/${client.id}`)).status).toBe(200);
      }
      const { http: tester } = await app.signedIn('microbiotester');
      expect((await tester.get(`/clientview/${client.id}`)).status).toBe(403);
    });

    it('answers 401 without a session, 404 for a user that is no client, 400 for a bad id', async () => {
      const client = await app.createUser('client');
      expect((await app.anonymous().get(`/clientview/${client.id}`)).status).toBe(401);
      const { user: staff, http } = await app.signedIn('staff');
      const notClient = await http.get(`/clientview/${staff.id}`);
      expect(notClient.status).toBe(404);
      expect(notClient.body.message).toBe('There is no client with this id.');
      const bad = await http.get('/clientview/abc');
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain('userId');
    });
  });
});
