import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_EXPORT_CHUNK } from '../../../server/domain/queue.js';
import { insertRequests } from '../../../fixtures/requests.js';
import { apiRouters } from '../../../server/app.js';
import { AuditFilter, dayAfter } from '../../../server/domain/auditTrail.js';
import { ROLES, type Role } from '../../../server/domain/roles.js';
import { listAuditTrail } from '../../../server/services/auditTrail.js';
import type { User } from '../../../server/services/users.js';
import type { HttpClient } from '../../helpers/httpClient.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

type Who = { user: User; http: HttpClient };

describe(`audit trail viewer (${databaseKind()})`, () => {
  let app: TestApp;
  let staff: Who;
  let admin: Who;
  let client: User;
  let first: { requestId: number; controlNumber: string | null };

  beforeAll(async () => {
    app = await startTestApp();
    app.clock.set('2026-03-16T09:00:00.000Z');
    staff = await app.signedIn('staff', { username: 'rosa.reyes', firstName: 'Rosa', lastName: 'Reyes' });
    admin = await app.signedIn('admin');
    client = await app.createUser('client');
    const seeded = await insertRequests(app.db, [
      { clientUserId: client.id, tests: ['eColi'] },
      { clientUserId: client.id, tests: ['eColi'] },
    ]);
    // Approve both, the second a day later, and reject nothing: three kinds of entries over two days.
    expect((await staff.http.put(`/requests/approve/${seeded[0].requestId}`)).status).toBe(200);
    await app.sendQueuedMail();
    app.clock.set('2026-03-17T10:00:00.000Z');
    staff = { ...staff, http: (await app.signedIn('staff')).http };
    admin = await app.signedIn('admin');
    expect((await admin.http.put(`/requests/approve/${seeded[1].requestId}`)).status).toBe(200);
    await app.sendQueuedMail();
    first = { requestId: seeded[0].requestId, controlNumber: '2026-0001' };
  });
  afterAll(() => app?.close());

  const audit = (http: HttpClient, query = '') => http.get(`/audit${query}`);

  it('lists entries newest first with actor, request and details, paged with X-Total-Count and a next link', async () => {
    const all = await audit(staff.http);
    expect(all.status).toBe(200);
    const total = Number(all.headers.get('x-total-count'));
    expect(total).toBe(all.body.length);
    expect(all.body.map((e: { at: string }) => e.at)).toEqual([...all.body.map((e: { at: string }) => e.at)].sort().reverse());
    expect(all.body).toContainEqual(expect.objectContaining({
      action: 'request.approve', actorName: 'Rosa Reyes', actorRole: 'staff', requestId: first.requestId, controlNumber: '2026-0001',
      details: { before: { status: 'PENDING_REVIEW' }, after: { status: 'FOR_TESTING', controlNumber: '2026-0001' } },
    }));

    const page = await audit(staff.http, '?limit=2&offset=1');
    expect(page.body).toEqual(all.body.slice(1, 3));
    expect(page.headers.get('x-total-count')).toBe(String(total));
    // The next page is below the page's last entry (a keyset cursor), not an offset.
    const link = /^<(\/audit\?limit=2&after=[\w-]+)>; rel="next"$/.exec(page.headers.get('link') ?? '');
    expect(link).not.toBeNull();
    const next = await audit(staff.http, link![1].slice('/audit'.length));
    expect(next.body).toEqual(all.body.slice(3, 5));
    expect(next.headers.get('x-total-count')).toBe(String(total));
  });

  it('pages by keyset with the filters kept in the next link, to the last page, which has no link', async () => {
    const all = (await audit(admin.http, '?action=request')).body;
    expect(all.length).toBeGreaterThanOrEqual(2);
    const first = await audit(admin.http, '?action=request&limit=1');
    expect(first.body).toEqual(all.slice(0, 1));
    const link = /^<\/audit(\?action=request&limit=1&after=[\w-]+)>; rel="next"$/.exec(first.headers.get('link') ?? '')!;
    expect(link).not.toBeNull();
    const last = await audit(admin.http, link[1]);
    expect(last.body).toEqual(all.slice(1, 2));
    expect(last.headers.get('x-total-count')).toBe(String(all.length));
    if (all.length === 2) expect(last.headers.get('link')).toBeNull();
    // A cursor of another list, a forged one, or one beside an offset is refused by name.
    for (const [query, message] of [
      ['?after=abc', 'after: is not a cursor of this list'],
      [`?after=${Buffer.from(JSON.stringify(['urgency', 'x', 1])).toString('base64url')}`, 'after: is not a cursor of this list'],
      [`${link[1].replace('?action=request&limit=1', '?offset=1')}`, 'offset: cannot be combined with after'],
    ]) {
      const res = await audit(admin.http, query);
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toContain(message);
    }
  });

  it('filters by user, request (id or control number), action (exact or family) and date range', async () => {
    const actions = async (query: string) => (await audit(admin.http, query)).body.map((e: { action: string; requestId: number | null }) => [e.action, e.requestId]);
    expect(await actions('?user=rosa.reyes')).toEqual([['mail.sent', first.requestId], ['request.approve', first.requestId]]);
    expect(await actions(`?user=${staff.user.id}&action=request.approve`)).toEqual([['request.approve', first.requestId]]);
    expect(await actions(`?request=${first.requestId}`)).toEqual(await actions('?request=2026-0001'));
    expect(await actions('?request=2026-0002&action=mail')).toEqual([['mail.sent', first.requestId + 1]]);
    expect(await actions('?action=request&since=2026-03-17')).toEqual([['request.approve', first.requestId + 1]]);
    expect(await actions('?action=request&until=2026-03-16')).toEqual([['request.approve', first.requestId]]);
    expect(await actions('?since=2026-03-18')).toEqual([]);
  });

  it('tells how many entries each filter matches, also on a page that cannot tell it alone', async () => {
    const all = async (query: string) => (await audit(admin.http, query)).body.length;
    const counted = async (query: string) => Number((await audit(admin.http, `${query}${query ? '&' : '?'}limit=1`)).headers.get('x-total-count'));
    const queries = [
      '', '?user=rosa.reyes', `?user=${staff.user.email}`, `?user=${staff.user.id}`, '?user=nobody', `?request=${first.requestId}`, '?request=2026-0001',
      '?request=2026-0009', '?action=request', '?action=request.approve', '?action=mail', '?action=requests', '?since=2026-03-17', '?until=2026-03-16',
      '?action=mail&since=2026-03-17&until=2026-03-17', `?user=${staff.user.id}&action=request`, '?request=2026-0002&action=mail&until=2026-03-17',
    ];
    for (const query of queries) expect(await counted(query), query).toBe(await all(query));
    expect(await counted('?user=rosa.reyes')).toBe(2);
    expect(await counted('?action=request.approve')).toBe(2);
    // Past the last entry: no rows, and still how many there are.
    const past = await audit(admin.http, '?action=request&limit=1&offset=5');
    expect(past.body).toEqual([]);
    expect(past.headers.get('x-total-count')).toBe('2');
  });

  it('exports the filtered trail as CSV', async () => {
    const res = await audit(staff.http, '?request=2026-0001&format=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="audit-trail.csv"/);
    const lines = res.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,at,actor,role,action,request_id,control_number,details,ip');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^\d+,2026-03-16T09:00:00\.000Z,Rosa Reyes,staff,request\.approve,\d+,2026-0001,"\{""before"":\{""status"":""PENDING_REVIEW""\}/);
  });

  it('streams a trail longer than one chunk whole, newest first, ties on the instant by id, formulas made inert', async () => {
    // A results import audits thousands at one instant: half of these share theirs.
    const entries = Array.from({ length: QUEUE_EXPORT_CHUNK + 20 }, (_, i) => ({
      at: i < 260 ? '2026-03-19T10:00:00.000Z' : `2026-03-19T09:${String(i % 60).padStart(2, '0')}:00.000Z`,
      action: 'test.bulk',
      details: JSON.stringify({ note: `entry ${i}` }),
      ip: i === 3 ? '=1+1' : '10.0.0.1',
    }));
    for (let i = 0; i < entries.length; i += 100) await app.db('audit_log').insert(entries.slice(i, i + 100));
    // Walked a page at a time by the next links (keyset: the ties of one instant are neither skipped nor repeated).
    const walked: number[] = [];
    for (let query: string | null = '?action=test.bulk&limit=200'; query; ) {
      const page = await audit(staff.http, query);
      walked.push(...page.body.map((e: { id: number }) => e.id));
      query = /^<\/audit(\?[^>]+)>; rel="next"$/.exec(page.headers.get('link') ?? '')?.[1] ?? null;
    }
    const res = await audit(staff.http, '?action=test.bulk&format=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBeNull();
    const lines = res.text.trimEnd().split('\r\n');
    expect(lines.slice(1).map((l) => Number(l.split(',')[0]))).toEqual(walked);
    expect(walked).toHaveLength(entries.length);
    expect(res.text).toContain(`,"{""note"":""entry 3""}",'=1+1\r\n`);
  });

  it('is for staff and admins only, and names each bad filter (400)', async () => {
    expect((await app.anonymous().get('/audit')).status).toBe(401);
    for (const role of ['client', 'chemtester', 'microbiotester', 'molbiotester'] as const) {
      const res = await audit((await app.signedIn(role)).http);
      expect(res.status).toBe(403);
      expect(res.body.message).toEqual(expect.any(String));
    }
    const bad = await audit(staff.http, '?since=2026-02-30&until=yesterday&request=abc&action=DROP%20TABLE&limit=0&format=xml');
    expect(bad.status).toBe(400);
    for (const field of ['since', 'until', 'request', 'action']) expect(bad.body.message).toContain(`${field}:`);
    expect((await audit(staff.http, '?since=2026-03-18&until=2026-03-17')).body.message).toMatch(/until: must not be before since/);
    expect((await audit(staff.http, '?format=xml')).body.message).toMatch(/format: must be json or csv/);
  });

  // The trail's counts (server/db/actionCounts.ts) against counting the entries: after random batches
  // (several rows per statement, several statements per transaction, transactions at once, which
  // PostgreSQL runs concurrently), the counts per action and day equal a GROUP BY over audit_log, and
  // every filter's page, total and whole list equal what the former query over the joined trail gave.
  // Last: it adds entries the tests above do not expect.
  describe('counts against counting the entries', () => {
    // Families and their near misses: 'prop' names prop, prop.a and prop.a.x, never propx.a or prop-x.
    const ACTIONS = ['prop', 'prop.a', 'prop.a.x', 'prop.b', 'propx.a', 'prop-x'];
    const DAYS = ['2026-03-15', '2026-03-16', '2026-03-17'];
    const entry = fc.record({
      action: fc.constantFrom(...ACTIONS),
      at: fc.tuple(fc.constantFrom(...DAYS), fc.integer({ min: 0, max: 86_399_999 })).map(([day, ms]) => new Date(Date.parse(`${day}T00:00:00.000Z`) + ms).toISOString()),
      actor: fc.nat(2),
      onRequest: fc.boolean(),
    });
    const transactions = fc.array(fc.array(fc.array(entry, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 2 }), { maxLength: 3 });
    const filter = fc.record({
      user: fc.constantFrom(() => String(staff.user.id), () => 'Rosa.Reyes', () => staff.user.email, () => 'nobody'),
      request: fc.constantFrom(() => String(first.requestId), () => '2026-0001', () => '2026-9999'),
      action: fc.constantFrom('prop', 'prop.a', 'prop.a.x', 'propx', 'prop-x', 'request', 'nothing'),
      since: fc.constantFrom(...DAYS),
      until: fc.constantFrom(...DAYS),
    }, { requiredKeys: [] });

    /** The former query: the joined trail, the user and request by name, the action family with LIKE. */
    function formerMatches(f: AuditFilter) {
      const query = app.db('audit_log as a').leftJoin('users as u', 'u.id', 'a.actor_user_id').leftJoin('requests as r', 'r.id', 'a.request_id');
      if (f.user) query.where((q) => (/^\d+$/.test(f.user!) ? q.where('a.actor_user_id', Number(f.user)) : q.whereRaw('lower(u.username) = ?', [f.user!.toLowerCase()]).orWhere('u.email', f.user!.toLowerCase())));
      if (f.request) query.where(/^\d+$/.test(f.request) ? 'a.request_id' : 'r.control_number', f.request);
      if (f.action) query.where((q) => q.where('a.action', f.action!).orWhere('a.action', 'like', `${f.action}.%`));
      if (f.since) query.where('a.at', '>=', `${f.since}T00:00:00.000Z`);
      if (f.until) query.where('a.at', '<', dayAfter(f.until));
      return query.orderBy([{ column: 'a.at', order: 'desc' }, { column: 'a.id', order: 'desc' }]).pluck('a.id');
    }

    it('keeps per action and day what audit_log holds, and answers every filter as counting the joined trail did', async () => {
      await fc.assert(
        fc.asyncProperty(transactions, filter, fc.nat(3), async (written, asked, offset) => {
          const actors = [null, staff.user.id, admin.user.id];
          await Promise.all(written.map((statements) => app.db.transaction(async (trx) => {
            for (const rows of statements) {
              await trx('audit_log').insert(rows.map((e) => ({ at: e.at, action: e.action, actor_user_id: actors[e.actor], request_id: e.onRequest ? first.requestId : null })));
            }
          })));
          const logged = await app.db('audit_log').groupBy('action', 'day').select('action', app.db.raw('substr(at, 1, 10) as day')).count({ n: '*' }).orderBy(['action', 'day']);
          const counted = await app.db('audit_counts').groupBy('action', 'day').select('action', 'day').sum({ n: 'n' }).orderBy(['action', 'day']);
          expect(counted.map((c) => ({ ...c, n: Number(c.n) }))).toEqual(logged.map((l) => ({ ...l, n: Number(l.n) })));

          const raw = Object.fromEntries(Object.entries(asked).map(([k, v]) => [k, typeof v === 'function' ? v() : v]));
          if (raw.since && raw.until && raw.since > raw.until) [raw.since, raw.until] = [raw.until, raw.since];
          const f = AuditFilter.parse(raw);
          const expected = (await formerMatches(f)).map(Number);
          const page = await listAuditTrail(app.db, f, { limit: 2, offset });
          expect(page.total).toBe(expected.length);
          expect(page.rows.map((r) => r.id)).toEqual(expected.slice(offset, offset + 2));
          expect((await listAuditTrail(app.db, f, {})).rows.map((r) => r.id)).toEqual(expected);
        }),
        { numRuns: 40 },
      );
    });
  });
});

describe(`audit entries cannot be changed or deleted through the API (${databaseKind()})`, () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  // The desk, an owning client and a tester reach every kind of write; the other testers add time only.
  const CALLERS: readonly Role[] = ['staff', 'admin', 'client', 'microbiotester'];

  it('leaves every earlier entry as it was after every mutating call of the desk, a client and a tester', async () => {
    const who = Object.fromEntries(await Promise.all(ROLES.map(async (role) => [role, await app.signedIn(role)] as const))) as Record<Role, Who>;
    const owner = who.client.user.id;
    const seeded = await insertRequests(app.db, [
      { clientUserId: owner, tests: ['eColi'] },
      { clientUserId: owner, tests: ['eColi'], status: 'FOR_TESTING' },
      { clientUserId: owner, tests: ['eColi'], status: 'FOR_RELEASE' },
    ]);
    // A history to protect: an approval, a receipt and a result.
    await who.staff.http.put(`/requests/approve/${seeded[0].requestId}`);
    await who.staff.http.post(`/requests/receive/${seeded[1].requestId}`, { receivedAt: '2026-03-16T09:00:00Z', containers: 1, condition: 'acceptable' });
    await who.microbiotester.http.put(`/microbioTestResults/${seeded[1].sampleIds[0]}`, { eColi: '5', eColiRemarks: 'negative', eColiAnalysisDate: null });
    // The approval's mail is sent, and audited, by the outbox worker after the call: sent before the
    // snapshot, or its entry (an id taken before the result's, committed after it) lands among the earlier ones.
    await app.sendQueuedMail();
    const before = await app.db('audit_log').orderBy('id').select();
    expect(before.length).toBeGreaterThanOrEqual(3);

    const mutating = apiRouters(app.deps).flatMap((router) =>
      router.stack.flatMap((layer) => layer.methods.filter((m) => !['GET', 'HEAD'].includes(m)).map((method) => ({ method, path: String(layer.path) }))),
    );
    expect(mutating.map((r) => r.path)).toContain('/requests/receive/:requestId');
    // Logging out ends the sessions the other calls need: last.
    mutating.sort((a, b) => Number(a.path === '/logout') - Number(b.path === '/logout'));
    const body = {
      body: 'Anything to add?', receivedAt: '2026-03-16T09:00:00Z', containers: 2, condition: 'acceptable', eColi: '7', eColiRemarks: 'positive',
      eColiAnalysisDate: null, identifier: 'x', password: 'y', id: before[0].id, action: 'tampered', details: '{}',
    };
    for (const request of seeded) {
      const values: Record<string, string> = { requestId: String(request.requestId), sampleId: String(request.sampleIds[0]), userId: String(owner), id: String(before[0].id) };
      for (const route of mutating) {
        const path = route.path.replace(/:(\w+)/g, (_, name: string) => values[name] ?? '1');
        for (const role of CALLERS) {
          const res = await who[role].http.request(route.method, path, body);
          expect(res.status, `${role} ${route.method} ${path}`).toBeLessThan(500);
        }
      }
    }
    const after = await app.db('audit_log').orderBy('id').select();
    expect(after.length).toBeGreaterThan(before.length);
    expect(after.slice(0, before.length)).toEqual(before);
  }, 180_000);

  it('offers no call that updates or deletes the audit trail', async () => {
    const staff = await app.signedIn('staff');
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST']) {
      const res = await staff.http.request(method, '/audit', { action: 'tampered' });
      expect(res.status).toBe(405);
    }
  });
});
