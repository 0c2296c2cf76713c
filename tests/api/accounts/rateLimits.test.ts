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

  // Addresses come from X-Forwarded-For, as behind the trusted proxy of a production set-up.
  const startProxied = async () => (app = await startTestApp({ TRUST_PROXY: 'true' }));
  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  it('blocks an account at one address after 10 failed logins there, for the rest of the 15-minute window', async () => {
    const lab = await startProxied();
    const user = await lab.createUser('client');
    const login = (password: string, ip = '203.0.113.5') => lab.anonymous().post('/login', { identifier: user.email, password }, from(ip));
    for (let i = 0; i < LIMITS.login.perAccountAndIp.max; i += 1) expect((await login(`wrong ${i}`)).status).toBe(401);
    const blocked = await login(PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe('Too many login attempts. Please try again in 15 minutes.');
    // The owner, at their own address, is not locked out by the stranger.
    expect((await login(PASSWORD, '198.51.100.20')).status).toBe(200);
    lab.clock.advanceMinutes(15);
    expect((await login(PASSWORD)).status).toBe(200);
  });

  it('counts the e-mail and the username of an account as one account', async () => {
    const lab = await startProxied();
    const user = await lab.createUser('client');
    const login = (identifier: string, password: string) => lab.anonymous().post('/login', { identifier, password }, from('203.0.113.6'));
    const half = LIMITS.login.perAccountAndIp.max / 2;
    for (let i = 0; i < half; i += 1) expect((await login(user.email, `wrong ${i}`)).status).toBe(401);
    for (let i = 0; i < half; i += 1) expect((await login(user.username!.toUpperCase(), `wrong ${i}`)).status).toBe(401);
    expect((await login(user.username!, PASSWORD)).status).toBe(429);
  });

  it('lets the owner log in from a fresh address after 20 addresses spent their failed logins and code checks, while each of those stays limited', async () => {
    const lab = await startProxied();
    const user = await lab.createUser('client');
    const attackers = Array.from({ length: 20 }, (_, i) => `192.0.2.${i + 1}`);
    const login = (password: string, ip: string) => lab.anonymous().post('/login', { identifier: user.email, password }, from(ip));
    const loginCodes = async () => Number((await lab.db('one_time_codes').where({ user_id: user.id, purpose: 'login' }).count({ n: '*' }))[0].n);

    // 200 failed logins in all, 10 from each address, far past the account-wide bound of 100.
    const statuses: number[] = [];
    for (let round = 0; round < LIMITS.login.perAccountAndIp.max; round += 1) {
      const answers = await Promise.all(attackers.map((ip) => login(`wrong ${round}`, ip)));
      statuses.push(...answers.map((a) => a.status));
    }
    // The first 100 are told the password is wrong; past the bound every password gets the "code
    // sent" answer, but no code was made for a wrong one: the guesser learns nothing.
    expect(statuses.filter((s) => s === 401)).toHaveLength(LIMITS.login.perAccount.max);
    expect(statuses.filter((s) => s === 200)).toHaveLength(attackers.length * LIMITS.login.perAccountAndIp.max - LIMITS.login.perAccount.max);
    expect(await loginCodes()).toBe(0);
    const concealed = await login('wrong again', '198.51.100.99');
    expect(concealed.status).toBe(200);
    expect(concealed.body.message).toBe('A login code has been sent to your e-mail address.');
    expect(await loginCodes()).toBe(0);

    // Each attacking address is still refused, even with the right password.
    for (const ip of [attackers[0], attackers[19]]) {
      const blocked = await login(PASSWORD, ip);
      expect(blocked.status).toBe(429);
      expect(blocked.body.message).toBe('Too many login attempts. Please try again in 15 minutes.');
    }
    // And they spend their code checks too (no code is open yet, so none is voided).
    for (let round = 0; round < LIMITS.codeCheck.perAccountAndIp.max; round += 1) {
      const answers = await Promise.all(attackers.map((ip) => lab.anonymous().post('/verify-otp', { username: user.email, otp: '000000' }, from(ip))));
      expect(answers.map((a) => a.status)).toEqual(attackers.map(() => 401));
    }
    expect((await lab.anonymous().post('/verify-otp', { username: user.email, otp: '000000' }, from(attackers[3]))).status).toBe(429);

    // The owner, from a fresh address: the right password reaches the code step, the code logs in.
    const owner = lab.anonymous();
    const good = await owner.post('/login', { identifier: user.email, password: PASSWORD }, from('198.51.100.30'));
    expect(good.status).toBe(200);
    expect(await loginCodes()).toBe(1);
    const otp = await codeFor(lab, user.email, 'login');
    const verified = await owner.post('/verify-otp', { username: user.email, otp }, from('198.51.100.30'));
    expect(verified.status).toBe(200);
    expect(verified.text).toBe(`client/${user.id}`);
  });

  it('still refuses one address past 10 failed logins on an account while the account-wide bound conceals', async () => {
    const lab = await startProxied();
    const user = await lab.createUser('client');
    const login = (password: string, ip: string) => lab.anonymous().post('/login', { identifier: user.email, password }, from(ip));
    for (let batch = 0; batch < LIMITS.login.perAccount.max; batch += 10) {
      await Promise.all(Array.from({ length: 10 }, (_, i) => login('wrong', `192.0.2.${100 + batch + i}`)));
    }
    const late = '203.0.113.77';
    for (let i = 0; i < LIMITS.login.perAccountAndIp.max; i += 1) expect((await login(`guess ${i}`, late)).status).toBe(200);
    expect((await login('guess 11', late)).status).toBe(429);
    lab.clock.advanceMinutes(15);
    // A new window: the account-wide count starts again, so a wrong password is refused plainly.
    expect((await login('wrong', late)).status).toBe(401);
  });

  it('does not count successful logins', async () => {
    const lab = await start();
    const user = await lab.createUser('client');
    for (let i = 0; i < LIMITS.login.perAccountAndIp.max + 2; i += 1) {
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
    for (let i = 0; i < LIMITS.codeCheck.perAccountAndIp.max; i += 1) {
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
    for (let i = 0; i < LIMITS.checkUser.perAccount.max; i += 1) expect((await check(user.email)).status).toBe(200);
    expect((await check(user.email)).status).toBe(429);
    const sent = lab.mailbox.messages.filter((m) => m.to === user.email).length;
    expect(sent).toBe(LIMITS.checkUser.perAccount.max);

    for (let i = LIMITS.checkUser.perAccount.max + 1; i < LIMITS.checkUser.perIp.max; i += 1) expect((await check(`probe${i}@example.test`)).status).toBe(404);
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

  it('keeps its counters in the database under the account id or a hash of the identifier, and drops day-old windows', async () => {
    const lab = await start();
    const user = await lab.createUser('client');
    await lab.anonymous().post('/login', { identifier: user.email, password: 'x' });
    expect((await lab.db('rate_limits').pluck('key')).sort()).toEqual(
      [`login:user:${user.id}`, `login:user:${user.id}:ip:127.0.0.1`, 'login:ip:127.0.0.1'].sort(),
    );
    await lab.db('rate_limits').delete();
    await lab.anonymous().post('/login', { identifier: 'someone@example.test', password: 'x' });
    const keys = (await lab.db('rate_limits').pluck('key')).sort();
    expect(keys).toEqual([expect.stringMatching(/^login:id:[0-9a-f]{64}$/), expect.stringMatching(/^login:id:[0-9a-f]{64}:ip:127\.0\.0\.1$/), 'login:ip:127.0.0.1']);

    lab.clock.advanceMinutes(25 * 60);
    await lab.anonymous().post('/login', { identifier: 'other@example.test', password: 'x' });
    expect(await lab.db('rate_limits').pluck('window_start')).toEqual(Array(3).fill(lab.clock.now().toISOString()));
  });
});
