// Two built `labctl serve` processes on one database (PostgreSQL in the PostgreSQL run, one SQLite
// file otherwise), as behind a load balancer: everything that must hold across instances lives in
// the database, so a caller may land on either.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../fixtures/requests.js';
import { systemClock } from '../../server/clock.js';
import { buildSubmitPayload } from '../../server/domain/requestPayload.js';
import type { QueueRow } from '../../server/domain/queue.js';
import { migrateLatest } from '../../server/db/migrate.js';
import { LIMITS } from '../../server/services/rateLimits.js';
import { createSession } from '../../server/services/sessions.js';
import { createUser } from '../../server/services/users.js';
import { createClientAccount } from '../../server/services/clients.js';
import { HttpClient, type HttpResponse } from '../helpers/httpClient.js';
import { startMailbox, type Mailbox } from '../helpers/mailbox.js';
import { databaseUrl, startServe, stopServes } from '../helpers/serveProcess.js';
import { createTestDatabase, databaseKind, type TestDatabase } from '../helpers/testDatabase.js';

const PASSWORD = 'correct horse battery';

describe(`two server instances on one database (${databaseKind()})`, () => {
  let database: TestDatabase;
  let mailbox: Mailbox;
  let dataDir: string;
  const servers: ResultPromise[] = [];
  const urls: string[] = [];

  async function serve(): Promise<string> {
    const server = startServe({ env: { DATABASE_URL: databaseUrl(database), SMTP_URL: mailbox.url, DATA_DIR: dataDir, LOG_LEVEL: 'silent' } });
    servers.push((await server).child);
    return (await server).url;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateLatest(database.db);
    mailbox = await startMailbox();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-multi-'));
    urls.push(...(await Promise.all([serve(), serve()])));
  }, 120_000);

  afterAll(async () => {
    expect(await stopServes(servers)).toEqual(servers.map(() => 0));
    await mailbox?.close();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const [A, B] = [0, 1];
  const on = (i: number) => new HttpClient(urls[i]);
  const user = (role: 'staff' | 'chemtester', email: string) =>
    createUser(database.db, systemClock, { email, username: null, password: PASSWORD, firstName: 'Multi', lastName: role, contactNumber: '639171234567', role, verified: true });
  const clientAccount = (email: string, lastName: string, ltoNo: string) =>
    createClientAccount(
      database.db,
      systemClock,
      { email, username: null, password: PASSWORD, firstName: 'Multi', lastName, contactNumber: '639171234567', verified: true },
      { companyName: 'Example Meats Corp.', ltoNo, classification: 'Importer' },
    );
  const sessionOn = async (i: number, userId: number) => {
    const { token } = await createSession(database.db, systemClock, { idleMinutes: 60, maxHours: 12 }, userId);
    const http = on(i);
    http.setCookie('lab_session', token);
    return { http, token };
  };

  it('a code mailed by one instance logs in on the other; the session works on both; logging out on one ends it on both', async () => {
    const client = await clientAccount('multi-client@example.test', 'Client', 'LTO-1');
    const onA = on(A);
    const mark = mailbox.mark();
    expect((await onA.post('/login', { identifier: client.email, password: PASSWORD })).status).toBe(200);
    const mail = await mailbox.waitFor(client.email, (m) => m.subject.includes('login code'), { after: mark });
    const code = /(\d{6})/.exec(mail.text)![1];

    const onB = on(B);
    const verified = await onB.post('/verify-otp', { username: client.email, otp: code });
    expect(verified.status).toBe(200);
    const token = /lab_session=([^;]+)/.exec(verified.headers.get('set-cookie') ?? '')![1];
    const [sessionA, sessionB] = [on(A), on(B)];
    sessionA.setCookie('lab_session', token);
    sessionB.setCookie('lab_session', token);
    expect((await sessionA.get('/me')).status).toBe(200);
    expect((await sessionB.get('/me')).status).toBe(200);
    // The code was used once: the other instance refuses it too.
    expect((await onA.post('/verify-otp', { username: client.email, otp: code })).status).toBe(401);

    expect((await sessionB.post('/logout', {})).status).toBe(204);
    expect((await sessionA.get('/me')).status).toBe(401);
    expect((await sessionB.get('/me')).status).toBe(401);
  });

  it('answers on each instance what either committed: a write one acknowledged shows in the next read on the other', async () => {
    const staff = await user('staff', 'multi-reader@example.test');
    const client = await clientAccount('multi-coherent@example.test', 'Coherent', 'LTO-3');
    const desks = [await sessionOn(A, staff.id), await sessionOn(B, staff.id)];
    const owners = [await sessionOn(A, client.id), await sessionOn(B, client.id)];
    const ids = (res: HttpResponse) => (res.body as QueueRow[]).map((r) => r.requestId);
    const pending = (i: number) => desks[i].http.get('/requests/queue/pending?limit=50&sort=newest');
    const tracked = (i: number) => owners[i].http.get(`/requests/queue/client/${client.id}?limit=50&sort=newest`);
    for (let n = 0; n < 10; n += 1) {
      const [writer, reader] = n % 2 === 0 ? [A, B] : [B, A];
      // Both lists are remembered on the reader before the write.
      await Promise.all([pending(reader), pending(reader), tracked(reader), tracked(reader)]);
      const payload = buildSubmitPayload(
        {
          representativeName: 'Multi Coherent', contactNumber: '639171234567', emailAddress: '', companyName: '', clientClassification: 'Importer', ltoNumber: '',
          testingPurpose: 'Local_Trade', otherTestingPurpose: '', sampleCategory: 'Walk-in', lotBatchNo: `LOT-C${n}`, sampleSource: '', productionDate: '',
          expiryDate: '', samplingDate: '', samplerName: '', samples: ['Beef'], tests: ['eColi'], gramPositiveAst: '', gramNegativeAst: '',
        },
        new Date(),
      );
      const submitted = await owners[writer].http.post(`/requests/submitrequest/${client.id}`, payload);
      expect(submitted.status).toBe(201);
      const { requestId } = submitted.body as { requestId: number };
      // The writer's own next read, and the other instance's, show it at once.
      expect(ids(await tracked(writer))[0]).toBe(requestId);
      expect(ids(await tracked(reader))[0]).toBe(requestId);
      expect(ids(await pending(reader))[0]).toBe(requestId);
    }
  });

  it('counts failed logins on both instances toward one limit', async () => {
    const staff = await user('staff', 'multi-limited@example.test');
    const { max, windowMinutes } = LIMITS.login.perAccountAndIp;
    // The servers count in fixed windows of the real clock: attempts on both sides of a window's
    // start are counted apart (a CI run failed so), so the attempts begin well inside one.
    const windowMs = windowMinutes * 60_000;
    const left = windowMs - (Date.now() % windowMs);
    if (left < 20_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
    for (let i = 0; i < max; i += 1) {
      expect((await on(i % 2).post('/login', { identifier: staff.email, password: `wrong ${i}` })).status).toBe(401);
    }
    expect((await on(A).post('/login', { identifier: staff.email, password: PASSWORD })).status).toBe(429);
    expect((await on(B).post('/login', { identifier: staff.email, password: PASSWORD })).status).toBe(429);
  });

  it('100 approvals at once across both give 100 gap-free numbers and 100 mails, each sent once; results written on both move a request once', async () => {
    const staff = await user('staff', 'multi-staff@example.test');
    const client = await clientAccount('multi-owner@example.test', 'Owner', 'LTO-2');
    const requests = await insertRequests(database.db, Array.from({ length: 100 }, () => ({ clientUserId: client.id, tests: ['betaLactams'], samples: ['Beef', 'Pork'] })));
    const desks = [await sessionOn(A, staff.id), await sessionOn(B, staff.id)];
    const mark = mailbox.mark();

    const answers = await Promise.all(requests.map((r, i) => desks[i % 2].http.put(`/requests/approve/${r.requestId}`)));
    expect(answers.map((a) => a.status)).toEqual(requests.map(() => 200));
    const year = new Date().getUTCFullYear();
    const numbers = answers.map((a) => a.body.controlNumber as string).sort();
    expect(numbers).toEqual(Array.from({ length: 100 }, (_, i) => `${year}-${String(i + 1).padStart(4, '0')}`));

    await expect.poll(() => mailbox.messages.filter((m) => m.index >= mark && m.subject.includes('request approved')).length, { timeout: 60_000 }).toBe(100);
    const subjects = mailbox.messages.filter((m) => m.index >= mark).map((m) => m.subject);
    expect(new Set(subjects).size).toBe(100);
    expect(subjects.filter((s) => s.includes('request approved'))).toHaveLength(100);
    // The worker marks a mail sent after the SMTP server took it, so the last row may lag the mailbox.
    const sentRows = async () => (await database.db('outbox').where({ state: 'sent' }).andWhere('subject', 'like', '%request approved%').count({ n: '*' }))[0].n;
    await expect.poll(async () => Number(await sentRows()), { timeout: 30_000 }).toBe(100);

    // Both samples of one request at once, one on each instance: the request moves to FOR RELEASE once.
    const tester = await user('chemtester', 'multi-chem@example.test');
    const testers = [await sessionOn(A, tester.id), await sessionOn(B, tester.id)];
    const [request] = requests;
    const today = new Date().toISOString().slice(0, 10);
    const body = { betaLactams: 'Not detected', betaLactamsRemarks: 'negative', betaLactamsAnalysisDate: today };
    const writes = await Promise.all(request.sampleIds.map((sampleId, i) => testers[i].http.put(`/chemMicrobialTestResults/${sampleId}`, body)));
    expect(writes.map((w) => w.status)).toEqual([200, 200]);
    expect((await database.db('requests').where('id', request.requestId).first('status')).status).toBe('FOR_RELEASE');
    const moves = await database.db('audit_log').where({ request_id: request.requestId, action: 'results.write' }).pluck('details');
    expect(moves.filter((d: string) => JSON.parse(d).status)).toEqual([expect.stringContaining('"after":"FOR_RELEASE"')]);
  }, 180_000);
});
