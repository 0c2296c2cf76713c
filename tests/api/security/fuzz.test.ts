// A fast-check fuzz of every mounted route: random callers, ids, queries, bodies (random JSON and
// valid payloads with random fields), proxy headers and content encodings. Never a 5xx, and every
// row stored is one its form accepts (tests/helpers/storedRows.ts). FUZZ_RUNS sets the number of
// calls: 10,000 by default, on each database, in `npm test`. The calls are drawn from one seed and
// sent FUZZ_CONCURRENCY at a time, as a portal's users would, so that waits on the disk and on
// PostgreSQL overlap; a failure prints the seed to replay (FUZZ_SEED).
import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../../fixtures/requests.js';
import { buildSubmitPayload } from '../../../server/domain/requestPayload.js';
import { ROLES, type Role } from '../../../server/domain/roles.js';
import { startPortal, startTestApp, type TestApp, type TestPortal } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';
import { mountedRoutes, type Route } from '../../helpers/routes.js';
import { invalidStoredRows } from '../../helpers/storedRows.js';
import { registration } from '../accounts/support.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 8);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

const SUBMISSION = buildSubmitPayload(
  {
    representativeName: 'acme', contactNumber: '639171234567', emailAddress: 'x@example.test', companyName: 'X', clientClassification: 'Importer',
    ltoNumber: 'lto-1', testingPurpose: 'Local_Trade', otherTestingPurpose: '', sampleCategory: 'Walk-in', lotBatchNo: '', sampleSource: '',
    productionDate: '', expiryDate: '', samplingDate: '', samplerName: '', samples: ['Beef'], tests: ['eColi', 'dog'], gramPositiveAst: '', gramNegativeAst: '',
  },
  new Date('2026-03-16T09:00:00.000Z'),
) as Record<string, unknown>;

/** Valid bodies of the calls that take one, by route, as starting points for mutation. */
const VALID_BODIES: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  'POST /requests/submitrequest/:userId': fc.constant(SUBMISSION),
  // Each with an address of its own, so that registrations are stored (and checked at the end).
  'POST /clients': fc.nat().map((n) => registration({ user: { email: `fuzz.${n}@example.test`, username: `fuzz${n}` } }) as unknown as Record<string, unknown>),
  'POST /login': fc.constant({ identifier: 'someone@example.test', password: 'correct horse battery' }),
  'POST /verify-otp': fc.constant({ username: 'someone', otp: '123456' }),
  'POST /change-password': fc.constant({ email: 'someone@example.test', otp: '123456', newPassword: 'a long new password' }),
  'POST /resend-code': fc.constant({ purpose: 'login', identifier: 'someone' }),
  'POST /requests/messages/:requestId': fc.constant({ body: 'Please send the lot number.' }),
  'PUT /clientview/:userId/address': fc.constant({ address: '12 Rizal Street, Manila' }),
  'PUT /microbioTestResults/:sampleId': fc.constant({ eColi: '12', eColiRemarks: 'positive', eColiAnalysisDate: '2026-03-10' }),
};
/** Who makes those calls for real: drawn more often for them, so that valid calls get through and store rows. */
const CALLER_OF: Record<string, Role | 'anonymous'> = {
  'POST /requests/submitrequest/:userId': 'client',
  'POST /clients': 'anonymous',
  'POST /requests/messages/:requestId': 'staff',
  'PUT /clientview/:userId/address': 'client',
  'PUT /microbioTestResults/:sampleId': 'microbiotester',
};
/** Any of them, for the other calls. */
const ANY_VALID_BODY = fc.oneof(...Object.values(VALID_BODIES));

const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('', ' ', 'ß'.repeat(12), 'x'.repeat(300), '\u0000', '1e309', '-0', '<b>'));
const value = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(text, { maxLength: 3 }), fc.dictionary(text, text, { maxKeys: 3 }));

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A valid body with a few fields, at its top or in its nested objects (a registration's user and client), replaced or added. */
const mutated = (validBody: fc.Arbitrary<Record<string, unknown>>) => fc
  // Often no change at all, so that valid calls get through and store rows for the checks at the end.
  .tuple(validBody, fc.oneof(fc.constant([]), fc.array(fc.tuple(fc.string({ maxLength: 20 }), value), { minLength: 1, maxLength: 4 })))
  .map(([base, changes]) => {
    const body = structuredClone(base);
    const targets = [body, ...Object.values(body).filter(isObject)];
    for (const [i, [key, v]] of changes.entries()) {
      const target = targets[(key.length + i) % targets.length];
      const keys = Object.keys(target);
      target[i % 2 && keys.length ? keys[key.length % keys.length] : key] = v;
    }
    return JSON.stringify(body);
  });

const bodyText = (validBody: fc.Arbitrary<Record<string, unknown>>) => fc.oneof(
  { arbitrary: mutated(validBody), weight: 4 },
  { arbitrary: fc.oneof(fc.json(), fc.string(), fc.constantFrom('', '{', '[]', 'null', '{"__proto__":{"role":"admin"}}')), weight: 1 },
);

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
  /** The Cookie header of each caller ('' for anonymous). */
  const callers = new Map<Role | 'anonymous', string>();
  // Calls go out through node:http with kept-alive sockets, raw (the path as generated, no URL
  // normalisation): fetch costs several times more per call, and the fuzz is 10,000 calls.
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let port: number;

  /** Sends one call and resolves with its status, once its whole answer has arrived. */
  function sendRaw(method: string, path: string, body: string | undefined, headers: Record<string, string>): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', reject);
      req.end(body);
    });
  }
  let valid: Record<string, string>;

  beforeAll(async () => {
    // TRUST_PROXY on, so forwarded headers reach the code that validates them.
    app = await startTestApp({ TRUST_PROXY: 'true' });
    routes = mountedRoutes(app.deps).filter((r) => r.key !== 'POST /logout');
    // The app as deployed, with its portal built: a path the fuzz makes unknown (`/requests/./x.pdf`
    // becomes `/requests/x.pdf`) is then the portal's page, not the 503 "not built yet" of a bare app.
    portal = await startPortal(app.deps, {});
    port = Number(new URL(portal.url).port);
    callers.set('anonymous', '');
    const signed = await Promise.all(ROLES.map(async (role) => [role, await app.signedIn(role)] as const));
    for (const [role, s] of signed) callers.set(role, `lab_session=${s.http.cookie('lab_session')}`);
    const client = signed.find(([role]) => role === 'client')![1].user;
    const seeded = await insertRequests(app.db, [
      { clientUserId: client.id, tests: ['eColi', 'betaLactams', 'chloramphenicol', 'dog'], status: 'FOR_TESTING' },
      { clientUserId: client.id, tests: ['eColi'] },
    ]);
    valid = { userId: String(client.id), requestId: String(seeded[0].requestId), sampleId: String(seeded[0].sampleIds[0]), report: 'microbioreport', token: 'no-such-token', name: 'pending', reportNumber: '2026-9999-R1', id: '1' };
  });
  afterAll(async () => {
    agent.destroy();
    await portal?.close();
    await app?.close();
  });

  it(`answers ${RUNS} random calls without a 5xx and stores nothing invalid`, async () => {
    // Each route's arbitrary is made once, not again for every call: making a string arbitrary costs
    // fast-check a table of its characters, which was an eighth of the fuzz's time.
    const params = fc.record({ userId: segment(valid.userId), requestId: segment(valid.requestId), sampleId: segment(valid.sampleId), report: segment(valid.report), token: segment(valid.token), name: segment(valid.name), reportNumber: segment(valid.reportNumber), id: segment(valid.id) });
    const anyBody = bodyText(ANY_VALID_BODY);
    const callOf = new Map(
      routes.map((route) => [
        route,
        fc.record({
          route: fc.constant(route),
          who: CALLER_OF[route.key] ? fc.oneof(fc.constant(CALLER_OF[route.key]), fc.constantFrom(...callers.keys())) : fc.constantFrom(...callers.keys()),
          params,
          query,
          body: VALID_BODIES[route.key] ? bodyText(VALID_BODIES[route.key]) : anyBody,
          // Half the calls without extra headers, as a browser sends them, so that valid calls get through.
          headers: fc.oneof(fc.constant({}), headers),
        }),
      ]),
    );
    const call = fc.constantFrom(...routes).chain((route) => callOf.get(route)!);
    const failures: string[] = [];
    const calls = fc.sample(call, { numRuns: RUNS, seed: SEED });
    const callOnce = async ({ route, who, params, query: q, body, headers: extra }: (typeof calls)[number]) => {
      const path = route.path.replace(/:(\w+)/g, (_, name: keyof typeof params) => params[name]) + (q ? `?${q}` : '');
      const cookie = callers.get(who)!;
      const status = await sendRaw(route.method, path, route.method === 'GET' ? undefined : body, { 'content-type': 'application/json', ...extra, ...(cookie && { cookie }) });
      if (status >= 500) failures.push(`seed ${SEED}: ${who} ${route.method} ${path.slice(0, 100)} ${body.slice(0, 100)}: ${status}`);
    };
    const lanes = Array.from({ length: CONCURRENCY }, async (_, lane) => {
      for (let i = lane; i < calls.length; i += CONCURRENCY) await callOnce(calls[i]);
    });
    await Promise.all(lanes);
    expect(failures).toEqual([]);

    // Whatever got in is whole and valid: every row as its form would store it, no request without
    // samples and tests, contact identity from the profile, addresses bounded.
    const noSamples = await app.db('requests as r').whereNotExists((q) => q.select(1).from('samples as s').whereRaw('s.request_id = r.id')).count({ n: '*' });
    const noTests = await app.db('requests as r').whereNotExists((q) => q.select(1).from('request_tests as t').whereRaw('t.request_id = r.id')).count({ n: '*' });
    const foreignContact = await app.db('requests as r')
      .join('users as u', 'u.id', 'r.client_user_id')
      .join('clients as c', 'c.user_id', 'u.id')
      .whereRaw('r.email_address <> u.email or r.company_name <> c.company_name')
      .count({ n: '*' });
    const ips = await app.db('audit_log').whereNotNull('ip').pluck('ip');
    expect({
      invalidRows: await invalidStoredRows(app),
      noSamples: Number(noSamples[0].n),
      noTests: Number(noTests[0].n),
      foreignContact: Number(foreignContact[0].n),
      badIp: ips.filter((ip: string) => ip.length > 45),
    }).toEqual({ invalidRows: [], noSamples: 0, noTests: 0, foreignContact: 0, badIp: [] });
  // A guard against a hang, with room for a throttled machine (10,000 calls took 45 s on a quiet one, over 300 s on one).
  }, Math.max(120_000, RUNS * 90));

  it('names a stored row its form would refuse or store differently (the check the fuzz ends with)', async () => {
    const user = await app.createUser('client');
    const [seeded] = await insertRequests(app.db, [{ clientUserId: user.id, tests: ['eColi'] }]);
    await app.db('users').where({ id: user.id }).update({ middle_name: ' ', first_name: ' Padded ' });
    await app.db('clients').where({ user_id: user.id }).update({ lto_no: 'lto-lower' });
    await app.db('requests').where({ id: seeded.requestId }).update({ representative_name: 'Bell\u0007' });
    const problems = await invalidStoredRows(app);
    expect(problems).toEqual(
      expect.arrayContaining([
        `users ${user.id} middle_name=" ": the form would store null`,
        `users ${user.id} first_name=" Padded ": the form would store "Padded"`,
        `clients ${user.id} lto_no="lto-lower": the form would store "LTO-LOWER"`,
        `requests ${seeded.requestId} representative_name: control character U+0007`,
      ]),
    );
  });
});
