// A fast-check fuzz of every mounted route: random callers, ids, queries, bodies (random JSON and
// valid payloads with random fields), proxy headers and content encodings. Never a 5xx, and nothing
// invalid stored. FUZZ_RUNS sets the number of calls (`npm run fuzz`: 10,000 on each database).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../../fixtures/requests.js';
import { buildSubmitPayload } from '../../../server/domain/requestPayload.js';
import { ROLES, type Role } from '../../../server/domain/roles.js';
import { HttpClient } from '../../helpers/httpClient.js';
import { startPortal, startTestApp, type TestApp, type TestPortal } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';
import { mountedRoutes, type Route } from '../../helpers/routes.js';
import { registration } from '../accounts/support.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);

const SUBMISSION = buildSubmitPayload(
  {
    representativeName: 'acme', contactNumber: '639171234567', emailAddress: 'x@example.test', companyName: 'X', clientClassification: 'Importer',
    ltoNumber: 'lto-1', testingPurpose: 'Local_Trade', otherTestingPurpose: '', sampleCategory: 'Walk-in', lotBatchNo: '', sampleSource: '',
    productionDate: '', expiryDate: '', samplingDate: '', samplerName: '', samples: ['Beef'], tests: ['eColi', 'dog'], gramPositiveAst: '', gramNegativeAst: '',
  },
  new Date('2026-03-16T09:00:00.000Z'),
) as Record<string, unknown>;

/** Valid bodies of the calls that take one, as starting points for mutation. */
const VALID_BODIES: Array<Record<string, unknown>> = [
  SUBMISSION,
  registration() as unknown as Record<string, unknown>,
  { identifier: 'someone@example.test', password: 'correct horse battery' },
  { username: 'someone', otp: '123456' },
  { email: 'someone@example.test', otp: '123456', newPassword: 'a long new password' },
  { purpose: 'login', identifier: 'someone' },
  { body: 'Please send the lot number.' },
  { eColi: '12', eColiRemarks: 'positive', eColiAnalysisDate: '2026-03-10' },
];

const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('', ' ', 'ß'.repeat(12), 'x'.repeat(300), '\u0000', '1e309', '-0', '<b>'));
const value = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(text, { maxLength: 3 }), fc.dictionary(text, text, { maxKeys: 3 }));

const mutated = fc
  .tuple(fc.constantFrom(...VALID_BODIES), fc.array(fc.tuple(fc.string({ maxLength: 20 }), value), { maxLength: 4 }))
  .map(([base, changes]) => {
    const body = structuredClone(base);
    const keys = Object.keys(body);
    for (const [i, [key, v]] of changes.entries()) body[i % 2 && keys.length ? keys[key.length % keys.length] : key] = v;
    return JSON.stringify(body);
  });

const bodyText = fc.oneof(mutated, fc.json(), fc.string(), fc.constantFrom('', '{', '[]', 'null', '{"__proto__":{"role":"admin"}}'));

const segment = (valid: string) => fc.oneof(fc.constant(valid), fc.constant(valid), fc.nat().map(String), fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent), fc.constantFrom('0', '-1', '2147483648', '%00', '1.5'));

const query = fc.option(
  fc.array(fc.tuple(fc.constantFrom('ids', 'year', 'identifier', 'limit', 'offset', 'page', 'status', 'otp'), fc.oneof(text, fc.nat().map(String))), { maxLength: 3 }).map(
    (pairs) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&'),
  ),
  { nil: undefined },
);

const headers = fc.record(
  {
    'x-forwarded-for': fc.oneof(fc.string({ maxLength: 300 }).filter((s) => /^[\x20-\x7e]*$/.test(s)), fc.constant('1.2.3.4, '.repeat(40))),
    'x-forwarded-proto': fc.constantFrom('https', 'http', 'gopher'),
    'content-encoding': fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'bogus'),
    'content-type': fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', 'application/json; charset=latin1'),
  },
  { requiredKeys: [] },
);

describe(`fuzz of every route (${databaseKind()})`, () => {
  let app: TestApp;
  let portal: TestPortal;
  let routes: Route[];
  const callers = new Map<Role | 'anonymous', HttpClient>();
  let valid: Record<string, string>;

  beforeAll(async () => {
    // TRUST_PROXY on, so forwarded headers reach the code that validates them.
    app = await startTestApp({ TRUST_PROXY: 'true' });
    routes = mountedRoutes(app.deps).filter((r) => r.key !== 'POST /logout');
    // The app as deployed, with its portal built: a path the fuzz makes unknown (`/requests/./x.pdf`
    // becomes `/requests/x.pdf`) is then the portal's page, not the 503 "not built yet" of a bare app.
    portal = await startPortal(app.deps, {});
    callers.set('anonymous', new HttpClient(portal.url));
    const signed = await Promise.all(ROLES.map(async (role) => [role, await app.signedIn(role)] as const));
    for (const [role, s] of signed) {
      const http = new HttpClient(portal.url);
      http.setCookie('lab_session', s.http.cookie('lab_session')!);
      callers.set(role, http);
    }
    const client = signed.find(([role]) => role === 'client')![1].user;
    const seeded = await insertRequests(app.db, [
      { clientUserId: client.id, tests: ['eColi', 'betaLactams', 'chloramphenicol', 'dog'], status: 'FOR_TESTING' },
      { clientUserId: client.id, tests: ['eColi'] },
    ]);
    valid = { userId: String(client.id), requestId: String(seeded[0].requestId), sampleId: String(seeded[0].sampleIds[0]), report: 'microbioreport', token: 'no-such-token', name: 'pending', reportNumber: '2026-9999-R1' };
  });
  afterAll(async () => {
    await portal?.close();
    await app?.close();
  });

  it(`answers ${RUNS} random calls without a 5xx and stores nothing invalid`, async () => {
    const call = fc.record({
      route: fc.constantFrom(...routes),
      who: fc.constantFrom(...callers.keys()),
      params: fc.record({ userId: segment(valid.userId), requestId: segment(valid.requestId), sampleId: segment(valid.sampleId), report: segment(valid.report), token: segment(valid.token), name: segment(valid.name), reportNumber: segment(valid.reportNumber) }),
      query,
      body: bodyText,
      headers,
    });
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(call, async ({ route, who, params, query: q, body, headers: extra }) => {
        const path = route.path.replace(/:(\w+)/g, (_, name: keyof typeof params) => params[name]) + (q ? `?${q}` : '');
        const res = await callers.get(who)!.request(route.method, path, route.method === 'GET' ? undefined : body, { 'content-type': 'application/json', ...extra });
        if (res.status >= 500) failures.push(`${who} ${route.method} ${path.slice(0, 100)} ${body.slice(0, 100)}: ${res.status}`);
        return res.status < 500;
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
    expect(failures).toEqual([]);

    // Whatever got in is whole and valid: no request without samples and tests, contact identity
    // from the profile, LTO numbers within bounds, addresses bounded.
    const noSamples = await app.db('requests as r').whereNotExists((q) => q.select(1).from('samples as s').whereRaw('s.request_id = r.id')).count({ n: '*' });
    const noTests = await app.db('requests as r').whereNotExists((q) => q.select(1).from('request_tests as t').whereRaw('t.request_id = r.id')).count({ n: '*' });
    const foreignContact = await app.db('requests as r')
      .join('users as u', 'u.id', 'r.client_user_id')
      .join('clients as c', 'c.user_id', 'u.id')
      .whereRaw('r.email_address <> u.email or r.company_name <> c.company_name')
      .count({ n: '*' });
    const ltos = [...(await app.db('clients').pluck('lto_no')), ...(await app.db('requests').whereNotNull('lto_number').pluck('lto_number'))];
    const ips = await app.db('audit_log').whereNotNull('ip').pluck('ip');
    expect({
      noSamples: Number(noSamples[0].n),
      noTests: Number(noTests[0].n),
      foreignContact: Number(foreignContact[0].n),
      badLto: ltos.filter((l: string) => l.length > 12 || l !== l.normalize('NFKC').toUpperCase()),
      badIp: ips.filter((ip: string) => ip.length > 45),
    }).toEqual({ noSamples: 0, noTests: 0, foreignContact: 0, badLto: [], badIp: [] });
  }, Math.max(120_000, RUNS * 100));
});
