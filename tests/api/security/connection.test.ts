// Proxy headers are believed only with TRUST_PROXY, the stored address is always a bounded, valid IP,
// and the session cookie is Secure and browsers are told to keep to https whenever the portal is public
// over https.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../../fixtures/requests.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';
import { fillPath, mountedRoutes } from '../../helpers/routes.js';
import { PASSWORD, codeFor, registration } from '../accounts/support.js';

const LONG_HEADER = `${'1.2.3.4, '.repeat(27)}abcdefg`.slice(0, 250);

async function auditIpOfRegistration(app: TestApp, headers: Record<string, string>) {
  const body = registration();
  expect((await app.anonymous().post('/clients', body, headers)).status).toBe(201);
  const row = await app.db('audit_log as a').join('users as u', 'u.id', 'a.actor_user_id').where('u.email', body.user.email).first('a.ip');
  return row.ip;
}

describe(`the caller's connection (${databaseKind()})`, () => {
  let direct: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    // An https portal without TRUST_PROXY: the set-up in which forged headers used to be believed.
    direct = await startTestApp({ PUBLIC_URL: 'https://lab.example.test' });
    proxied = await startTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await direct?.close();
    await proxied?.close();
  });

  it('ignores X-Forwarded-For without TRUST_PROXY: audit and rate limits see the real address', async () => {
    expect(await auditIpOfRegistration(direct, { 'x-forwarded-for': '203.0.113.9' })).toBe('127.0.0.1');
    const keys = await direct.db('rate_limits').pluck('key');
    expect(keys.filter((k: string) => k.includes(':ip:'))).toEqual(['register:ip:127.0.0.1']);
  });

  it('with TRUST_PROXY takes the address the proxy appended, not the ones the caller wrote', async () => {
    expect(await auditIpOfRegistration(proxied, { 'x-forwarded-for': '198.51.100.7, 203.0.113.9' })).toBe('203.0.113.9');
  });

  it('keeps the connection address when the trusted header holds no valid address', async () => {
    expect(await auditIpOfRegistration(proxied, { 'x-forwarded-for': 'x'.repeat(70) })).toBe('127.0.0.1');
  });

  it.each([
    ['without', () => direct],
    ['with', () => proxied],
  ])('answers a 250-character X-Forwarded-For on every route %s TRUST_PROXY without a 5xx', async (_, appOf) => {
    const app = appOf();
    const { user, http } = await app.signedIn('admin');
    const [seeded] = await insertRequests(app.db, [{ clientUserId: (await app.createUser('client')).id, tests: ['eColi'], status: 'FOR_TESTING' }]);
    const values = { userId: String(user.id), requestId: String(seeded.requestId), sampleId: String(seeded.sampleIds[0]), report: 'microbioreport', name: 'pending', token: 'no-such-token', reportNumber: '2026-9999-R1', id: '1' };
    const failures: string[] = [];
    for (const client of [app.anonymous(), http]) {
      for (const route of mountedRoutes(app.deps).filter((r) => r.key !== 'POST /logout')) {
        const res = await client.request(route.method, fillPath(route, values), route.method === 'GET' ? undefined : {}, { 'x-forwarded-for': LONG_HEADER });
        if (res.status >= 500) failures.push(`${route.key}: ${res.status}`);
      }
    }
    // And the calls that store the address, with valid input.
    const login = await app.anonymous().post('/login', { identifier: user.email, password: PASSWORD }, { 'x-forwarded-for': LONG_HEADER });
    expect(login.status).toBe(200);
    expect((await app.anonymous().post('/clients', registration(), { 'x-forwarded-for': LONG_HEADER })).status).toBe(201);
    expect(failures).toEqual([]);
  });

  it('sets the session cookie Secure when PUBLIC_URL is https, though the hop to the server is plain http', async () => {
    const user = await direct.createUser('client');
    const browser = direct.anonymous();
    expect((await browser.post('/login', { identifier: user.email, password: PASSWORD })).status).toBe(200);
    const verify = await browser.post('/verify-otp', { username: user.email, otp: await codeFor(direct, user.email, 'login') });
    expect(verify.status).toBe(200);
    const cookie = verify.headers.getSetCookie().find((c) => c.startsWith('lab_session='));
    expect(cookie?.split(';').map((a) => a.trim().toLowerCase())).toContain('secure');
  });

  it('tells browsers to keep to https (HSTS) only when PUBLIC_URL is https', async () => {
    const hsts = (await direct.anonymous().get('/healthz')).headers.get('strict-transport-security');
    expect(hsts).toMatch(/^max-age=\d{7,}; includeSubDomains$/);
    expect((await proxied.anonymous().get('/healthz')).headers.get('strict-transport-security')).toBeNull();
  });
});
