// Every call the app mounts, read from its routers so a route added later is covered too: an
// anonymous caller is asked to log in, every role's malformed input gets a 4xx with a message and
// never a 500 or a stack trace, ids of someone else's data are refused, racing calls and calls from
// another site are answered cleanly, and the session cookie and security headers are as designed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../fixtures/requests.js';
import { RegistrationSchema } from '../../server/domain/accountRules.js';
import { ANALYTE_CODES } from '../../server/domain/catalog.js';
import { SubmitRequestPayload } from '../../server/domain/requestPayload.js';
import { analysisDateKey, remarksKey } from '../../server/domain/resultShape.js';
import { ROLES, type Role } from '../../server/domain/roles.js';
import { SESSION_COOKIE, sessionPolicy } from '../../server/http/middleware/session.js';
import { createSession } from '../../server/services/sessions.js';
import type { User } from '../../server/services/users.js';
import { HttpClient, type HttpResponse } from '../helpers/httpClient.js';
import { startPortal, startTestApp, TEST_PASSWORD, type TestApp, type TestPortal } from '../helpers/testApp.js';
import { databaseKind } from '../helpers/testDatabase.js';
import { mountedRoutes, type Route } from '../helpers/routes.js';

/** Calls anyone may make (health, logging in and out, registration, password reset); every other call needs a session. */
const PUBLIC = new Set([
  'GET /healthz',
  'GET /readyz',
  'GET /openapi.json',
  'GET /api-docs',
  'POST /login',
  'POST /verify-otp',
  'POST /logout',
  'POST /clients',
  'POST /clientverify',
  'GET /check-user',
  'POST /verify-otp-password',
  'POST /change-password',
  'POST /resend-code',
  'GET /verify/:token',
]);

/** Who may write each group's results: nobody else, whatever the sample. */
const RESULT_WRITERS: Record<string, Role> = {
  'PUT /microbioTestResults/:sampleId': 'microbiotester',
  'PUT /chemMicrobialTestResults/:sampleId': 'chemtester',
  'PUT /chemTestElisaResults/:sampleId': 'chemtester',
  'PUT /molBioTestResults/:sampleId': 'molbiotester',
};

/** Path segments that are no valid id: words, signs, fractions, beyond the database's integers, encoded NUL, broken escapes, very long. */
const MALFORMED_SEGMENTS = [
  'abc', '-1', '0', '1.5', '1e3', '0x1A', 'Infinity', 'NaN', '%20', '2147483648', '9007199254740993', '9'.repeat(30),
  '%00', '%E0%A4%A', '%', '..%2F..%2Fetc', '%F0%9F%A6%A0', 'x'.repeat(4000),
];

/** Whether an address part decodes to well-formed text (no NUL, no broken escape, UTF-8), as the edge requires. */
const isWellFormedEscape = (text: string) => !text.includes('%00') && !text.includes('%E0%A4%A') && text !== '%';

/** Query keys the calls read, and a few they might read one day (paging). */
const QUERY_KEYS = ['year', 'ids', 'identifier', 'password', 'username', 'otp', 'email', 'newPassword', 'purpose', 'page', 'pageSize', 'limit', 'offset', 'cursor', 'status', 'sort'];

const everyKey = (value: string) => QUERY_KEYS.map((k) => `${k}=${encodeURIComponent(value)}`).join('&');

const MALFORMED_QUERIES = [
  ...['abc', '', '-1', '0', '1.5', '2147483648', '9'.repeat(30), '\u0000', 'x'.repeat(500), '<script>alert(1)</script>'].map(everyKey),
  QUERY_KEYS.map((k) => `${k}=1&${k}=2`).join('&'),
  QUERY_KEYS.map((k) => `${k}[a][b]=1&${k}[]=2`).join('&'),
  `ids=${'1,'.repeat(300)}`,
  'ids=,,,',
  'ids=1,abc',
  `ids=${'9'.repeat(30)}`,
  'ids=2147483648',
  'ids=0',
  'year=%E0%A4%A&ids=%&page=%zz',
  '__proto__[admin]=1&constructor[prototype][admin]=1',
];

/** Methods a route may not be mounted for (GET is left out: the portal page answers any other GET). */
const OTHER_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND'];

const ACCOUNT_FIELDS = ['identifier', 'password', 'username', 'otp', 'email', 'newPassword', 'purpose'];
const DESK_FIELDS = ['body', 'testerId', 'testerUsername', 'microbioTestResults', 'chemElisaTestResults', 'chemMicrobialTestResults', 'molBioTestResults'];
const FORM_FIELDS = [
  ...ACCOUNT_FIELDS,
  ...DESK_FIELDS,
  ...Object.keys(SubmitRequestPayload.in.shape).filter((k) => !ANALYTE_CODES.includes(k)),
  ...Object.keys(RegistrationSchema.shape.user.shape),
  ...Object.keys(RegistrationSchema.shape.client.shape),
];
/** Fields of result writes (and the test flags of a submission). */
const RESULT_FIELDS = ANALYTE_CODES.flatMap((code) => [code, remarksKey(code), analysisDateKey(code)]);

const withEvery = (fields: readonly string[], value: unknown) => Object.fromEntries(fields.map((f) => [f, value]));
/** Every known field set to `value`, also inside the nested objects of a registration and a submission. */
const fieldSoup = (value: unknown, fields: readonly string[] = [...FORM_FIELDS, ...RESULT_FIELDS]) => {
  const flat = withEvery(fields, value);
  return { ...flat, user: flat, client: flat, sample: [flat] };
};

function deeplyNested(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

interface Body {
  label: string;
  text: string;
  type?: string;
}

const json = (label: string, value: unknown): Body => ({ label, text: JSON.stringify(value) });

const MALFORMED_BODIES: Body[] = [
  json('an empty array', []),
  json('an array of objects', [{ a: 1 }]),
  json('a string', 'text'),
  json('a number', 123),
  json('null', null),
  json('true', true),
  { label: 'broken JSON', text: '{"identifier":' },
  { label: 'an empty JSON body', text: '' },
  { label: 'a deeply nested object', text: deeplyNested(5000) },
  json('numbers everywhere', fieldSoup(12345)),
  json('huge numbers everywhere', fieldSoup(1e300)),
  json('negative numbers everywhere', fieldSoup(-1)),
  json('objects everywhere', fieldSoup({ a: { b: 1 } })),
  json('arrays everywhere', fieldSoup([1, 'two'])),
  json('booleans everywhere', fieldSoup(true)),
  json('nulls everywhere', fieldSoup(null)),
  json('empty strings everywhere', fieldSoup('')),
  json('NUL characters everywhere', fieldSoup('a\u0000b')),
  json('lone surrogates everywhere', fieldSoup('\ud800x\udfff')),
  { label: 'a NUL character in a key', text: '{"body\\u0000":"x","identifier":"a"}' },
  json('10,000-character form fields', fieldSoup('x'.repeat(10_000), FORM_FIELDS)),
  json('10,000-character result values', withEvery(ANALYTE_CODES, 'x'.repeat(10_000))),
  json('10,000-character remarks', withEvery(ANALYTE_CODES.map(remarksKey), 'x'.repeat(10_000))),
  json('10,000-character dates', withEvery(ANALYTE_CODES.map(analysisDateKey), 'x'.repeat(10_000))),
  json('impossible dates', withEvery([...RESULT_FIELDS, 'productionDate', 'expiryDate', 'samplingDate', 'submissionDate'], '2026-02-30')),
  { label: 'prototype keys', text: '{"__proto__":{"role":"admin"},"constructor":{"prototype":{"role":"admin"}},"body":"hi"}' },
  { label: 'a form with nested keys', text: 'identifier[a]=1&identifier[]=2&body[x]=3&password=', type: 'application/x-www-form-urlencoded' },
  { label: 'plain text', text: 'hello', type: 'text/plain' },
  { label: 'XML', text: '<user><role>admin</role></user>', type: 'application/xml' },
];

/** Text of a stack trace, a source location or database internals: never shown to a caller. */
const LEAK = /\n\s+at |\.(?:ts|js|mjs):\d+|node_modules|SQLITE_|\b(?:from|into|update) [`"]\w+[`"]|violates/i;

/**
 * Whether a line of `text` holds a stack frame, "at <something> (<file>:<line>:<column>)": what
 * /\bat .+\(.+:\d+:\d+\)/i matches, read in one pass per line, since that expression backtracks over
 * every "at " and "(" of a long one-line answer (a list of requests took it seconds).
 */
function hasStackFrame(text: string): boolean {
  return text.split(/[\n\r\u2028\u2029]/).some((line) => {
    const at = line.search(/\bat /i);
    // The first "(" at least one character after "at " leaves the most room for the location.
    const open = at < 0 ? -1 : line.indexOf('(', at + 4);
    return open >= 0 && /:\d+:\d+\)/.test(line.slice(open + 2));
  });
}

const BATCH = 32;

/** The largest id there is, and no request has it. */
const MISSING_ID = 2_147_483_647;

/** An answer as these tests read it: JSON with a message (or a control number), or text. */
type Reply = HttpResponse<{ message?: unknown; controlNumber?: string } | null>;

type Caller = Role | 'anonymous' | 'otherClient';

interface Call {
  who: Caller;
  route: Route;
  path: string;
  body?: Body;
}

const describeCall = (c: Call) => `${c.who} ${c.route.method} ${c.path.length > 120 ? `${c.path.slice(0, 120)}...` : c.path}${c.body ? ` with ${c.body.label}` : ''}`;

/** What is wrong with an answer to a malformed call, if anything. */
function problemOf(res: Reply): string | null {
  if (res.status >= 500) return `answered ${res.status}: ${res.text.slice(0, 200)}`;
  if (LEAK.test(res.text) || hasStackFrame(res.text)) return `leaks internals: ${res.text.slice(0, 200)}`;
  if (res.status >= 400) {
    const message = res.body?.message;
    if (typeof message !== 'string' || message.trim() === '') return `answered ${res.status} without a message: ${res.text.slice(0, 200)}`;
  }
  return null;
}

describe(`every API call (${databaseKind()})`, () => {
  let app: TestApp;
  let routes: Route[];
  const http = new Map<Caller, HttpClient>();
  /** Ids of the signed-in client's data: the valid value of each path parameter. */
  let valid: Record<string, string>;
  let ownerRequestIds: number[];
  const users = {} as Record<Role, User>;

  /** Another session of `userId`, as from a second browser. */
  async function sessionOf(userId: number): Promise<HttpClient> {
    const { token } = await createSession(app.db, app.clock, sessionPolicy(app.deps), userId);
    const client = app.anonymous();
    client.setCookie(SESSION_COOKIE, token);
    return client;
  }

  beforeAll(async () => {
    app = await startTestApp();
    routes = mountedRoutes(app.deps);
    http.set('anonymous', app.anonymous());
    const signed = Object.fromEntries(await Promise.all(ROLES.map(async (role) => [role, await app.signedIn(role)] as const)));
    for (const role of ROLES) {
      http.set(role, signed[role].http);
      users[role] = signed[role].user;
    }
    http.set('otherClient', (await app.signedIn('client')).http);
    const owner = signed.client.user.id;
    const tests = ['eColi', 'betaLactams', 'chloramphenicol', 'dog'];
    const seeded = await insertRequests(app.db, [
      { clientUserId: owner, tests, status: 'FOR_TESTING' },
      { clientUserId: owner, tests },
      { clientUserId: owner, tests, status: 'FOR_RELEASE' },
      { clientUserId: owner, tests, status: 'RELEASED' },
    ]);
    ownerRequestIds = seeded.map((s) => s.requestId);
    // The FOR_TESTING request is one no desk call can move, so calls in any order meet the same state.
    valid = { userId: String(owner), requestId: String(seeded[0].requestId), sampleId: String(seeded[0].sampleIds[0]), report: 'microbioreport', token: 'no-such-token-0000', name: 'for-testing', reportNumber: '2026-9999-R1', id: '1' };
  });
  afterAll(() => app?.close());

  /** The route's path with each parameter valid, except `param` set to `value`. */
  const pathOf = (route: Route, param?: string, value?: string) =>
    route.path.replace(/:(\w+)/g, (_, name: string) => {
      if (name === param) return value!;
      if (!(name in valid)) throw new Error(`No valid value for :${name} of ${route.key}: add one to \`valid\`.`);
      return valid[name];
    });

  const send = (call: Call, client = http.get(call.who)!) => {
    const body = call.body ?? (call.route.method === 'GET' ? undefined : { label: 'an empty object', text: '{}' });
    return client.request(call.route.method, call.path, body?.text, body ? { 'content-type': body.type ?? 'application/json' } : {});
  };

  /** Sends the calls in parallel batches (through `client` if given) and returns each one's answer. */
  async function sendAll(calls: Call[], client?: HttpClient): Promise<Array<{ call: Call; res: Reply }>> {
    const answers: Array<{ call: Call; res: Reply }> = [];
    for (let i = 0; i < calls.length; i += BATCH) {
      const slice = calls.slice(i, i + BATCH);
      answers.push(...(await Promise.all(slice.map(async (call) => ({ call, res: await send(call, client) })))));
    }
    return answers;
  }

  it('reads the routes from the routers, public ones included', () => {
    const keys = routes.map((r) => r.key);
    expect(keys).toEqual(expect.arrayContaining([...PUBLIC, 'GET /me', 'PUT /requests/approve/:requestId', 'GET /api/reports/:report']));
    expect(keys.filter((k) => k.startsWith('PUT ') && k.endsWith('/:sampleId')).sort()).toEqual(Object.keys(RESULT_WRITERS).sort());
  });

  it('asks an anonymous caller to log in on every other call, whatever the ids', async () => {
    const calls = routes.filter((r) => !PUBLIC.has(r.key)).flatMap((route) => [
      { who: 'anonymous' as const, route, path: pathOf(route) },
      // Text that is not well-formed (a NUL, bytes that are not UTF-8, a broken escape) is refused at the edge for everyone, like a body that is not JSON.
      ...route.params.flatMap((param) => MALFORMED_SEGMENTS.filter(isWellFormedEscape).map((value) => ({ who: 'anonymous' as const, route, path: pathOf(route, param, value) }))),
      ...MALFORMED_QUERIES.filter(isWellFormedEscape).map((query) => ({ who: 'anonymous' as const, route, path: `${pathOf(route)}?${query}` })),
    ]);
    const wrong = (await sendAll(calls))
      .filter(({ res }) => res.status !== 401 || typeof res.body?.message !== 'string' || !res.body.message)
      .map(({ call, res }) => `${describeCall(call)}: ${res.status} ${res.text.slice(0, 120)}`);
    expect(wrong).toEqual([]);
  });

  it("refuses another client every call with the signed-in client's ids, and ids of no request alike", async () => {
    // A missing request answers like someone else's, so a client cannot probe which ids exist.
    const requestIds = () => [...ownerRequestIds, MISSING_ID];
    const idRoutes = routes.filter((r) => r.params.some((p) => p === 'userId' || p === 'requestId' || p === 'sampleId'));
    const calls: Call[] = idRoutes.flatMap((route) =>
      route.params.includes('requestId')
        ? requestIds().map((id) => ({ who: 'otherClient' as const, route, path: pathOf(route, 'requestId', String(id)) }))
        : [{ who: 'otherClient' as const, route, path: pathOf(route) }],
    );
    const batchRoute = routes.find((r) => r.key === 'GET /getResult')!;
    for (const id of requestIds()) calls.push({ who: 'otherClient', route: batchRoute, path: `/getResult?ids=${id}` });
    const answers = await sendAll(calls);
    expect(answers.filter(({ res }) => res.status !== 403 || !res.body?.message).map(({ call, res }) => `${describeCall(call)}: ${res.status}`)).toEqual([]);
    // One answer per call, whichever request the id names.
    const answersOf = new Map<string, Set<string>>();
    for (const { call, res } of answers) answersOf.set(call.route.key, (answersOf.get(call.route.key) ?? new Set()).add(res.text));
    expect([...answersOf].filter(([, texts]) => texts.size > 1).map(([key, texts]) => `${key}: ${[...texts].join(' | ')}`)).toEqual([]);
  });

  it('lets only the tester of the discipline write its results', async () => {
    const calls: Call[] = Object.keys(RESULT_WRITERS).flatMap((key) => {
      const route = routes.find((r) => r.key === key)!;
      return ROLES.map((who) => ({ who, route, path: pathOf(route) }));
    });
    const statuses = (await sendAll(calls)).map(({ call, res }) => `${call.who} ${call.route.key}: ${res.status}`);
    const expected = calls.map((c) => `${c.who} ${c.route.key}: ${RESULT_WRITERS[c.route.key] === c.who ? 200 : 403}`);
    expect(statuses).toEqual(expected);
  });

  it('refuses a 2 MB body on every call that takes one, signed in or not', async () => {
    const huge: Body = json('a 2 MB string', { body: 'x'.repeat(2 * 1024 * 1024) });
    const calls = routes
      .filter((r) => r.method !== 'GET')
      .flatMap((route) => (['anonymous', 'staff', 'client'] as const).map((who) => ({ who, route, path: pathOf(route), body: huge })));
    const wrong = (await sendAll(calls)).filter(({ res }) => res.status !== 413 || problemOf(res)).map(({ call, res }) => `${describeCall(call)}: ${res.status}`);
    expect(wrong).toEqual([]);
  });

  it('answers a method no route takes with a 405 and a message', async () => {
    const calls = routes.flatMap((route) =>
      OTHER_METHODS.filter((method) => !routes.some((r) => r.path === route.path && r.method === method)).flatMap((method) =>
        (['anonymous', 'staff'] as const).map((who) => ({ who, route: { ...route, method }, path: pathOf(route) })),
      ),
    );
    const wrong = (await sendAll(calls))
      .filter(({ call, res }) => res.status !== (call.route.method === 'OPTIONS' ? 200 : 405) || (res.status === 405 && problemOf(res)))
      .map(({ call, res }) => `${describeCall(call)}: ${res.status} ${res.text.slice(0, 100)}`);
    expect(wrong).toEqual([]);
  });

  it('refuses an address that is not well-formed text at the edge, before the login check, naming its part', async () => {
    const anonymous = app.anonymous();
    const answers = await Promise.all(['/getResult/%00', '/getResult/%E0%A4%A', '/getResult/%', '/getResult?ids=%E0%A4%A', '/getResult?ids=1%07'].map((p) => anonymous.get(p)));
    expect(answers.map((res) => [res.status, res.body])).toEqual([
      [400, { message: 'The path contains an invalid character (control character U+0000).' }],
      [400, { message: 'The path contains an escape (%..) that is broken or does not decode to UTF-8 text.' }],
      [400, { message: 'The path contains an escape (%..) that is broken or does not decode to UTF-8 text.' }],
      [400, { message: 'ids contains an invalid character (U+FFFD, the replacement character of bytes that are not UTF-8).' }],
      [400, { message: 'ids contains an invalid character (control character U+0007).' }],
    ]);
  });

  it('reads ids and text the same way on both databases: beyond 32 bits or with a NUL, a 400', async () => {
    const staff = http.get('staff')!;
    const tester = http.get('microbiotester')!;
    const idMessage = 'must be an id (a whole number from 1 to 2147483647)';
    expect((await staff.get('/getResult/2147483648')).body).toEqual({ message: `requestId: ${idMessage}` });
    expect((await staff.get('/getResult?ids=1,2147483648')).body).toEqual({ message: `ids.1: ${idMessage}` });
    expect((await staff.get('/clientview/2147483648')).body).toEqual({ message: `userId: ${idMessage}` });
    expect((await tester.put('/microbioTestResults/2147483648', {})).body).toEqual({ message: `sampleId: ${idMessage}` });
    const write = await tester.put(`/microbioTestResults/${valid.sampleId}`, { eColi: 'Not\u0000detected', eColiRemarks: 'negative' });
    expect([write.status, write.body]).toEqual([400, { message: 'eColi contains an invalid character (control character U+0000).' }]);
    const check = await app.anonymous().get('/check-user?identifier=someone%00@example.test');
    expect([check.status, check.body]).toEqual([400, { message: 'identifier contains an invalid character (control character U+0000).' }]);
  });

  it('answers racing calls once with success and otherwise with a 409, never a 500', async () => {
    const tests = ['eColi', 'betaLactams'];
    const seeds = [
      ...Array.from({ length: 8 }, () => ({ clientUserId: users.client.id, tests })),
      { clientUserId: users.client.id, tests, status: 'FOR_RELEASE' as const },
      { clientUserId: users.client.id, tests, status: 'FOR_TESTING' as const },
    ];
    const seeded = await insertRequests(app.db, seeds);
    const [approveTwice, rejectOrApprove, ...approveEach] = seeded.slice(0, 8).map((s) => s.requestId);
    const { requestId: releaseOrReject } = seeded[8];
    const sample = seeded[9].sampleIds[0];
    const desk = [http.get('staff')!, http.get('admin')!];
    const race = (calls: Array<(c: HttpClient) => Promise<Reply>>) => Promise.all(calls.map((call, i) => call(desk[i % desk.length])));
    const times = <T>(n: number, item: T) => Array.from({ length: n }, () => item);

    const [approvals, rejections, releases, each, writes] = await Promise.all([
      race(times(6, (c) => c.put(`/requests/approve/${approveTwice}`))),
      race([...times(3, (c: HttpClient) => c.put(`/requests/reject/${rejectOrApprove}`)), ...times(3, (c: HttpClient) => c.put(`/requests/approve/${rejectOrApprove}`))]),
      race([...times(3, (c: HttpClient) => c.put(`/requests/approveRelease/${releaseOrReject}`, { password: TEST_PASSWORD })), ...times(3, (c: HttpClient) => c.put(`/requests/reject/${releaseOrReject}`))]),
      race(approveEach.map((id) => (c) => c.put(`/requests/approve/${id}`))),
      Promise.all(Array.from({ length: 6 }, (_, i) => http.get('microbiotester')!.put(`/microbioTestResults/${sample}`, { eColi: `${i} CFU/g`, eColiRemarks: 'negative' }))),
    ]);
    const statuses = (answers: Reply[]) => answers.map((a) => a.status).sort();
    for (const answers of [approvals, rejections, releases]) expect(statuses(answers)).toEqual([200, 409, 409, 409, 409, 409]);
    expect(statuses(each)).toEqual(times(6, 200));
    expect(new Set(each.map((a) => a.body?.controlNumber)).size).toBe(6);
    expect(statuses(writes)).toEqual(times(6, 200));
  });

  it('refuses every state-changing call from another site, signed in or not', async () => {
    const changing = routes.filter((r) => r.method !== 'GET');
    const answers = await Promise.all(
      changing.flatMap((route) =>
        (['anonymous', 'staff', 'client'] as const).flatMap((who) =>
          ['https://evil.example', 'null', `${app.url}.evil.example`].map(async (origin) => ({
            call: `${who} ${route.method} ${pathOf(route)} from ${origin}`,
            res: await http.get(who)!.request(route.method, pathOf(route), '{}', { 'content-type': 'application/json', origin }),
          })),
        ),
      ),
    );
    const wrong = answers.filter(({ res }) => res.status !== 403 || res.body?.message !== 'Requests from another site are not accepted.').map(({ call, res }) => `${call}: ${res.status}`);
    expect(wrong).toEqual([]);
    // The portal's own origin passes the check.
    const own = await app.anonymous().post('/login', { identifier: 'nobody@example.test', password: 'wrong password' }, { origin: app.url });
    expect(own.status).toBe(401);
  });

  it('sets the session cookie HttpOnly and SameSite=Lax, for the whole site', async () => {
    const user = await app.createUser('client', { password: 'a long password' });
    const browser = app.anonymous();
    expect((await browser.post('/login', { identifier: user.email, password: 'a long password' })).status).toBe(200);
    const code = await app.mailbox.codeFor(user.email, 'login code');
    const verify = await browser.post('/verify-otp', { username: user.email, otp: code });
    expect(verify.status).toBe(200);
    const cookie = verify.headers.getSetCookie().find((c) => c.startsWith('lab_session='));
    const attributes = cookie?.split(';').slice(1).map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']));
    // Plain http here: Secure follows the connection (ctx.secure).
    expect(attributes).not.toContain('secure');
  });

  describe('the portal page', () => {
    let portal: TestPortal;
    let portalUrl: string;

    beforeAll(async () => {
      // The page's shell and one hashed asset are all the server reads.
      portal = await startPortal(app.deps, { 'index-abc123.js': 'export {};\n' });
      portalUrl = portal.url;
    });
    afterAll(() => portal?.close());

    it('runs no inline script, so the strict policy does not block the page', async () => {
      const html = (await new HttpClient(portalUrl).get('/login', { accept: 'text/html' })).text;
      expect(html).toContain('<div id="root">');
      expect(html.match(/<script\b[^>]*>/g)?.every((tag) => / src="[^"]+"/.test(tag))).toBe(true);
    });

    it.each(['/login', '/home/client/1', '/assets/index-abc123.js', '/no-such-call'])('is served with the security headers: %s', async (pathname) => {
      const res = await new HttpClient(portalUrl).get(pathname, { accept: 'text/html' });
      expect(res.status).toBe(200);
      const csp = res.headers.get('content-security-policy') ?? '';
      for (const directive of ["default-src 'self'", "script-src 'self'", "object-src 'none'", "frame-ancestors 'none'", "base-uri 'self'"]) expect(csp).toContain(directive);
      expect(csp).not.toContain('unsafe-inline');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    });

    it('answers errors with the same headers, as JSON without a stack', async () => {
      const res = await new HttpClient(portalUrl).put('/requests/approve/abc', '{"broken":', { accept: 'text/html' });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(problemOf(res)).toBeNull();
    });
  });

  describe.each([...ROLES, 'anonymous'] as const)('%s', (who) => {
    it('gets a 4xx with a message, never a 500 or a stack, for malformed ids, queries and bodies', async () => {
      // Anonymous callers never get past the login check of the other calls (tested above).
      const reachable = who === 'anonymous' ? routes.filter((r) => PUBLIC.has(r.key)) : routes;
      const calls: Call[] = reachable.flatMap((route) => [
        ...route.params.flatMap((param) => MALFORMED_SEGMENTS.map((value) => ({ who, route, path: pathOf(route, param, value) }))),
        ...MALFORMED_QUERIES.map((query) => ({ who, route, path: `${pathOf(route)}?${query}` })),
        ...(route.method === 'GET' ? [] : MALFORMED_BODIES.map((body) => ({ who, route, path: pathOf(route), body }))),
      ]);
      // A session of its own, since logging out ends it: those calls go last.
      const client = who === 'anonymous' ? app.anonymous() : await sessionOf(users[who].id);
      const isLogout = (c: Call) => c.route.key === 'POST /logout';
      const problems = (await sendAll([...calls.filter((c) => !isLogout(c)), ...calls.filter(isLogout)], client))
        .map(({ call, res }) => {
          const problem = problemOf(res);
          return problem && `${describeCall(call)}: ${problem}`;
        })
        .filter(Boolean);
      expect(problems).toEqual([]);
      // Over a thousand calls per caller: on a busy 2-core machine this sweep alone can take half a minute.
    }, 120_000);
  });
});
