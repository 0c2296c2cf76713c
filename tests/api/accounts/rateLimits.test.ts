// Each test gets its own app: the limits count per address, and every test client is 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../server/services/rateLimits.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';
import { PASSWORD, codeFor, otherThan, registration } from './support.js';

describe(`rate limits (${databaseKind()})`, () => {
  let app: TestApp | undefined;
  const start = async () => (app = await startTestApp());
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('blocks an account after 10 failed logins for the rest of the 15-minute window, even with the right password', async () => {
    const lab = await start();
    const user = await lab.createUser('client');
    const login = (password: string) => lab.anonymous().post('/login', { identifier: user.email, password });
    for (let i = 0; i < LIMITS.login.perIdentifier.max; i += 1) expect((await login(`wrong ${i}`)).status).toBe(401);
    const blocked = await login(PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe('Too many login attempts. Please try again in 15 minutes.');
    lab.clock.advanceMinutes(15);
    expect((await login(PASSWORD)).status).toBe(200);
  });

  it('does not count successful logins', async () => {
    const lab = await start();
    const user = await lab.createUser('client');
    for (let i = 0; i < LIMITS.login.perIdentifier.max + 2; i += 1) {
      expect((await lab.anonymous().post('/login', { identifier: user.email, password: PASSWORD })).status).toBe(200);
    }
  });

  it('blocks one address after 50 failed logins across accounts', async () => {
    const lab = await start();
    for (let i = 0; i < LIMITS.login.perIp.max; i += 1) {
      expect((await lab.anonymous().post('/login', { identifier: `guess${i}@example.test`, password: 'x' })).status).toBe(401);
    }
    const user = await lab.createUser('client');
    expect((await lab.anonymous().post('/login', { identifier: user.email, password: PASSWORD })).status).toBe(429);
  });

  it('limits code checks per account', async () => {
    const lab = await start();
    const user = await lab.createUser('client');
    expect((await lab.anonymous().post('/login', { identifier: user.email, password: PASSWORD })).status).toBe(200);
    const code = await codeFor(lab, user.email, 'login');
    for (let i = 0; i < LIMITS.codeCheck.perIdentifier.max; i += 1) {
      expect((await lab.anonymous().post('/verify-otp', { username: user.email, otp: otherThan(code) })).status).toBe(401);
    }
    const blocked = await lab.anonymous().post('/verify-otp-password', { email: user.email, otp: '123456' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/^Too many code checks/);
  });

  it('limits check-user per e-mail and per address', async () => {
    const lab = await start();
    const user = await lab.createUser('client');
    const check = (identifier: string) => lab.anonymous().get(`/check-user?identifier=${encodeURIComponent(identifier)}`);
    for (let i = 0; i < LIMITS.checkUser.perIdentifier.max; i += 1) expect((await check(user.email)).status).toBe(200);
    expect((await check(user.email)).status).toBe(429);
    const sent = lab.mailbox.messages.filter((m) => m.to === user.email).length;
    expect(sent).toBe(LIMITS.checkUser.perIdentifier.max);

    for (let i = LIMITS.checkUser.perIdentifier.max + 1; i < LIMITS.checkUser.perIp.max; i += 1) expect((await check(`probe${i}@example.test`)).status).toBe(404);
    const blocked = await check('another@example.test');
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/^Too many e-mail checks/);
  });

  it('limits registrations per address', async () => {
    const lab = await start();
    for (let i = 0; i < LIMITS.register.perIp.max; i += 1) expect((await lab.anonymous().post('/clients', registration())).status).toBe(201);
    const blocked = await lab.anonymous().post('/clients', registration());
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe('Too many registrations. Please try again in 60 minutes.');
    lab.clock.advanceMinutes(60);
    expect((await lab.anonymous().post('/clients', registration())).status).toBe(201);
  });

  it('keeps its counters in the database under a hash of the identifier, and drops day-old windows', async () => {
    const lab = await start();
    await lab.anonymous().post('/login', { identifier: 'someone@example.test', password: 'x' });
    const keys = (await lab.db('rate_limits').pluck('key')).sort();
    expect(keys).toEqual([expect.stringMatching(/^login:id:[0-9a-f]{64}$/), 'login:ip:127.0.0.1']);

    lab.clock.advanceMinutes(25 * 60);
    await lab.anonymous().post('/login', { identifier: 'other@example.test', password: 'x' });
    expect(await lab.db('rate_limits').pluck('window_start')).toEqual([lab.clock.now().toISOString(), lab.clock.now().toISOString()]);
  });
});
