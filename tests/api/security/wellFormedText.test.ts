// Every text input of the API is well-formed (server/domain/wellFormedText.ts): a lone surrogate, a
// control character or bytes that are not UTF-8, in a body field, a query parameter or a path
// parameter of any mounted route, is a 400 naming where it is, on both databases, before anything is
// stored. Before the edge check, a lone surrogate in a result value was a 500 on PostgreSQL and a 200
// storing bytes that are not UTF-8 on SQLite.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../../fixtures/requests.js';
import { ROLES, type Role } from '../../../server/domain/roles.js';
import { invalidCharacterIn } from '../../../server/domain/wellFormedText.js';
import type { HttpClient } from '../../helpers/httpClient.js';
import { fillPath, mountedRoutes, type Route } from '../../helpers/routes.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

/** Characters that are no text: lone surrogates, C0 controls (not tab and line breaks), DEL, C1, U+FFFD. */
const badCharacter = fc.oneof(
  fc.integer({ min: 0xd800, max: 0xdfff }),
  fc.constantFrom(...[...Array(32).keys()].filter((c) => ![0x09, 0x0a, 0x0d].includes(c))),
  fc.integer({ min: 0x7f, max: 0x9f }),
  fc.constant(0xfffd),
).map((code) => String.fromCharCode(code));

/** Printable text around one bad character. */
const illFormed = fc.tuple(fc.string({ maxLength: 12 }), badCharacter, fc.string({ maxLength: 12 })).map((parts) => parts.join(''));

/** The same in an address: percent escapes of control characters, of a surrogate as UTF-8 would write it (ED A0 80, not UTF-8), and of stray bytes. */
const illFormedEscape = fc
  .tuple(fc.string({ maxLength: 12 }), fc.constantFrom('%00', '%07', '%1B', '%7F', '%C2%9B', '%ED%A0%80', '%ED%BF%BF', '%FF', '%C0%80', '%E2%82'), fc.string({ maxLength: 12 }))
  .map(([before, bad, after]) => `${encodeURIComponent(before)}${bad}${encodeURIComponent(after)}`);

/** Field names the forms, the desk and the result screens send, at the depths they send them. */
const FIELDS = ['identifier', 'password', 'email', 'otp', 'body', 'reason', 'eColi', 'eColiRemarks', 'representativeName', 'otherTestingPurpose', 'user.middleName', 'user.firstName', 'client.companyName', 'client.address', 'samples.0', 'results.0.value', 'results.0.testCode'];
const QUERY_KEYS = ['q', 'ids', 'identifier', 'year', 'limit', 'after', 'status', 'format', 'discipline', 'sort', 'action'];

/** `{a: {b: [value]}}` for the path `a.b.0`. */
function nested(path: string, value: string): unknown {
  return path
    .split('.')
    .reverse()
    .reduce<unknown>((inner, key) => (/^\d+$/.test(key) ? Object.assign(Array(Number(key) + 1).fill('x'), { [key]: inner }) : { [key]: inner }), value);
}

describe(`well-formed text on every route (${databaseKind()})`, () => {
  let app: TestApp;
  let routes: Route[];
  const callers = new Map<Role | 'anonymous', HttpClient>();
  let valid: Record<string, string>;
  let sampleId: number;
  let requestId: number;

  /** Counts of every table a form writes, and of result values: what a refused call must leave as it was. */
  async function stored(): Promise<Record<string, number>> {
    const tables = ['users', 'clients', 'requests', 'samples', 'request_tests', 'request_messages', 'audit_log', 'reports', 'sample_receipts', 'outbox'];
    const counts = await Promise.all(tables.map(async (t) => [t, Number((await app.db(t).count({ n: '*' }))[0].n)] as const));
    const values = Number((await app.db('analyses').whereNotNull('value').count({ n: '*' }))[0].n);
    return { ...Object.fromEntries(counts), analysisValues: values };
  }

  beforeAll(async () => {
    app = await startTestApp();
    routes = mountedRoutes(app.deps);
    callers.set('anonymous', app.anonymous());
    for (const role of ROLES) callers.set(role, (await app.signedIn(role)).http);
    const client = await app.createUser('client');
    const [seeded] = await insertRequests(app.db, [{ clientUserId: client.id, tests: ['eColi', 'betaLactams'], status: 'FOR_TESTING' }]);
    ({ requestId } = seeded);
    sampleId = seeded.sampleIds[0];
    valid = { userId: String(client.id), requestId: String(requestId), sampleId: String(sampleId), report: 'microbioreport', token: 'no-such-token', name: 'pending', reportNumber: '2026-9999-R1', id: '1' };
  });
  afterAll(async () => {
    await app?.close();
  });

  it('refuses a lone surrogate in a result value with a 400 naming the field, and stores nothing', async () => {
    const tester = callers.get('microbiotester')!;
    const before = await stored();
    const single = await tester.put(`/microbioTestResults/${sampleId}`, { eColi: '12\ud800', eColiRemarks: 'negative' });
    expect([single.status, single.body]).toEqual([400, { message: 'eColi contains an invalid character (lone surrogate U+D800).' }]);
    const batch = await tester.put(`/results/request/${requestId}`, { results: [{ sampleId, testCode: 'eColi', value: '\udc00<10', remark: 'negative', analysisDate: null }] });
    expect([batch.status, batch.body]).toEqual([400, { message: 'results.0.value contains an invalid character (lone surrogate U+DC00).' }]);
    const key = await tester.put(`/microbioTestResults/${sampleId}`, { ['eColi\u0007']: '12', nested: { ['x\ud800']: 1 } });
    expect([key.status, key.body]).toEqual([400, { message: 'A field name in the request contains an invalid character (control character U+0007).' }]);
    expect(await stored()).toEqual(before);
  });

  it('refuses bytes that are not UTF-8 in a body, which the parser would turn into U+FFFD, naming the field', async () => {
    const prefix = Buffer.from('{"eColi":"12');
    const body = Buffer.concat([prefix, Buffer.from([0xff, 0xed, 0xa0, 0x80]), Buffer.from('","eColiRemarks":"negative"}')]);
    const cookie = `lab_session=${callers.get('microbiotester')!.cookie('lab_session')}`;
    const res = await fetch(`${app.url}/microbioTestResults/${sampleId}`, { method: 'PUT', body, headers: { 'content-type': 'application/json', cookie } });
    expect([res.status, await res.json()]).toEqual([400, { message: 'eColi contains an invalid character (U+FFFD, the replacement character of bytes that are not UTF-8).' }]);
  });

  it('answers ill-formed text in any body field, query parameter or path parameter of every route with a 400 naming it, never a 5xx, storing nothing', async () => {
    const before = await stored();
    const failures: string[] = [];
    for (const route of routes) {
      const where = fc.oneof(
        fc.record({ kind: fc.constant('query'), field: fc.constantFrom(...QUERY_KEYS), text: illFormedEscape }),
        ...(route.method === 'GET' ? [] : [fc.record({ kind: fc.constant('body'), field: fc.constantFrom(...FIELDS), text: illFormed })]),
        ...(route.params.length ? [fc.record({ kind: fc.constant('path'), field: fc.constantFrom(...route.params), text: illFormedEscape })] : []),
      );
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...callers.keys()), where, async (who, { kind, field, text }) => {
          const path = fillPath(route, kind === 'path' ? { ...valid, [field]: text } : valid) + (kind === 'query' ? `?${field}=${text}` : '');
          const res = await callers.get(who)!.request(route.method, path, kind === 'body' ? nested(field, text) : undefined);
          const message = String(res.body?.message ?? '');
          const named =
            kind === 'body'
              ? message === `${field} contains an invalid character (${invalidCharacterIn(text)}).`
              : message.startsWith(kind === 'path' ? 'The path contains ' : `${field} contains an invalid character (`);
          if (res.status !== 400 || !named) failures.push(`${who} ${route.method} ${path} ${kind} ${JSON.stringify(text)}: ${res.status} ${message}`);
        }),
        { numRuns: 8 },
      );
    }
    expect(failures.slice(0, 10)).toEqual([]);
    expect(await stored()).toEqual(before);
  });
});
