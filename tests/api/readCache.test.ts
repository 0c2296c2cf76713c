// The read cache (services/readCache.ts): sessions and the polled lists are answered from memory
// between commits, on both engines. Whatever commits, this server or another process on the same
// database, the next answer is fresh; one client's answer is never another's; users of one role
// share one entry; session bookkeeping makes no answer stale.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../fixtures/requests.js';
import { createDb, type Db } from '../../server/db/knex.js';
import type { QueueRow } from '../../server/domain/queue.js';
import type { HttpClient, HttpResponse } from '../helpers/httpClient.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { databaseKind } from '../helpers/testDatabase.js';

const ids = (res: HttpResponse) => (res.body as QueueRow[]).map((r) => r.requestId);
/** The headers of an answer but its date and keep-alive. */
const headersOf = (res: HttpResponse) => Object.fromEntries([...res.headers].filter(([name]) => !['date', 'keep-alive', 'connection'].includes(name)));

describe(`answers between commits (${databaseKind()})`, () => {
  let app: TestApp;
  /** A second connection to the same database, as `labctl` in another process would open. */
  let other: Db;
  let staff: HttpClient;
  let clientId: number;

  beforeAll(async () => {
    app = await startTestApp();
    other = app.config.database.client === 'sqlite3' ? createDb(app.config.database) : app.db;
    staff = (await app.signedIn('staff')).http;
    clientId = (await app.signedIn('client')).user.id;
  });

  afterAll(async () => {
    if (other !== app.db) await other.destroy();
    await app.close();
  });

  /** The SQL statements `work` causes on the server's own connection. */
  async function queriesOf(work: () => Promise<unknown>): Promise<string[]> {
    const seen: string[] = [];
    // The mail worker's and the change versions' reads are not the call's own.
    const onQuery = (q: { sql: string }) => void (/\b(outbox|lab_versions)\b/.test(q.sql) || seen.push(q.sql));
    app.db.on('query', onQuery);
    try {
      await work();
    } finally {
      app.db.off('query', onQuery);
    }
    return seen;
  }

  it('answers a repeated list call from memory, with the same body and headers', async () => {
    await insertRequests(app.db, Array.from({ length: 3 }, () => ({ clientUserId: clientId, tests: ['eColi'], status: 'PENDING_REVIEW' as const })));
    const first = await staff.get('/requests/queue/pending?limit=2');
    let again: HttpResponse | undefined;
    const sql = await queriesOf(async () => (again = await staff.get('/requests/queue/pending?limit=2')));
    expect(again!.status).toBe(200);
    expect(again!.body).toEqual(first.body);
    // Every header, the security policy included, whether the answer was computed or remembered.
    expect(headersOf(again!)).toEqual(headersOf(first));
    expect(again!.headers.get('Link')).toContain('rel="next"');
    expect(sql).toEqual([]);
  });

  it("answers fresh after a commit of this server's own", async () => {
    const before = ids(await staff.get('/requests/queue/pending?limit=100'));
    const [added] = await insertRequests(app.db, [{ clientUserId: clientId, tests: ['eColi'], status: 'PENDING_REVIEW' }]);
    const after = ids(await staff.get('/requests/queue/pending?limit=100'));
    expect(after).toEqual([...before, added!.requestId]);
  });

  it('answers fresh after a commit of another process on the same database', async () => {
    const before = ((await staff.get('/requests/pending')).body as { requestId: number }[]).map((r) => r.requestId);
    const [added] = await insertRequests(other, [{ clientUserId: clientId, tests: ['dog'], status: 'PENDING_REVIEW' }]);
    const after = (await staff.get('/requests/pending')).body as { requestId: number }[];
    expect(after.map((r) => r.requestId)).toEqual([...before, added!.requestId]);
  });

  it('computes a list once for callers asking at the same moment, and answers each the same', async () => {
    await insertRequests(app.db, [{ clientUserId: clientId, tests: ['eColi'], status: 'PENDING_REVIEW' }]);
    let answers: HttpResponse[] = [];
    const sql = await queriesOf(async () => (answers = await Promise.all(Array.from({ length: 20 }, () => staff.get('/requests/pending')))));
    expect(new Set(answers.map((r) => r.status))).toEqual(new Set([200]));
    expect(new Set(answers.map((r) => r.text)).size).toBe(1);
    const listQueries = sql.filter((q) => /from `requests`|from "requests"/.test(q));
    expect(listQueries, listQueries.join("\n")).toHaveLength(1);
  });

  it('answers every user of a role from one entry, and each client from its own', async () => {
    // Creating the colleague changes data (users): done before the list is first computed.
    const colleague = (await app.signedIn('staff')).http;
    await insertRequests(app.db, [{ clientUserId: clientId, tests: ['eColi'], status: 'PENDING_REVIEW' }]);
    const first = await staff.get('/requests/queue/pending?limit=7');
    // The colleague's session is read once; the list is not computed again.
    await colleague.get('/me');
    let second: HttpResponse | undefined;
    const sql = await queriesOf(async () => (second = await colleague.get('/requests/queue/pending?limit=7')));
    expect(second!.body).toEqual(first.body);
    expect(sql).toEqual([]);
  });

  it('keeps answers when a session is touched or a login attempt counted', async () => {
    const other = await app.signedIn('staff');
    await insertRequests(app.db, [{ clientUserId: clientId, tests: ['eColi'], status: 'PENDING_REVIEW' }]);
    await staff.get('/requests/queue/pending?limit=9');
    // Another user's last-seen touch (two minutes on) and a failed login of a stranger.
    app.clock.advanceMinutes(2);
    expect((await other.http.get('/me')).status).toBe(200);
    expect((await app.anonymous().post('/login', { email: 'nobody@example.test', password: 'wrong password' })).status).toBeGreaterThanOrEqual(400);
    const sql = await queriesOf(() => staff.get('/requests/queue/pending?limit=9'));
    expect(sql.filter((q) => /from `requests`|from "requests"/.test(q))).toEqual([]);
  });

  it("never answers one user's list to another", async () => {
    const owner = await app.signedIn('client');
    const stranger = await app.signedIn('client');
    const path = `/requests/queue/client/${owner.user.id}`;
    expect((await owner.http.get(path)).status).toBe(200);
    expect((await owner.http.get(path)).status).toBe(200);
    const refused = await stranger.http.get(path);
    expect(refused.status).toBe(403);
    expect(refused.body).toHaveProperty('message');
  });

  it('refuses a session at once when it ends, or when another process disables its user', async () => {
    const desk = await app.signedIn('staff');
    expect((await desk.http.get('/requests/queue/pending')).status).toBe(200);
    expect((await desk.http.get('/requests/queue/pending')).status).toBe(200);
    await other('users').where({ id: desk.user.id }).update({ deletion_status: 'DISABLED' });
    expect((await desk.http.get('/requests/queue/pending')).status).toBe(401);

    const leaving = await app.signedIn('staff');
    expect((await leaving.http.get('/requests/queue/pending')).status).toBe(200);
    expect((await leaving.http.post('/logout')).status).toBe(204);
    expect((await leaving.http.get('/requests/queue/pending')).status).toBe(401);
  });

  it('refuses a cached session once it has been idle too long', async () => {
    const desk = await app.signedIn('staff');
    expect((await desk.http.get('/requests/queue/pending')).status).toBe(200);
    app.clock.advanceMinutes(app.config.sessionIdleMinutes + 1);
    expect((await desk.http.get('/requests/queue/pending')).status).toBe(401);
  });
});
