// docs/deploy.md followed on two machines: two built `labctl serve` processes, each started with the
// settings of deploy/lab.env as systemd reads them, each with a DATA_DIR of its own, no SECRET_KEY,
// on one PostgreSQL (in the SQLite run: one SQLite file, two DATA_DIRs, the single-host variant).
// Only DATABASE_URL, DATA_DIR and SMTP_URL are changed, to point at the test's database, temporary
// directories and in-process mail server. Calls carry X-Forwarded-For/-Proto as the proxy of the
// document sets them (the file has TRUST_PROXY=true). Needs `npm run build` first, like the CLI tests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../../fixtures/requests.js';
import { systemClock } from '../../../server/clock.js';
import { createClientAccount } from '../../../server/services/clients.js';
import { createUser } from '../../../server/services/users.js';
import { HttpClient } from '../../helpers/httpClient.js';
import { startMailbox, type Mailbox } from '../../helpers/mailbox.js';
import { databaseUrl, LABCTL, startServe, stopServes } from '../../helpers/serveProcess.js';
import { parseSystemdEnv } from '../../helpers/systemdEnv.js';
import { createTestDatabase, databaseKind, type TestDatabase } from '../../helpers/testDatabase.js';

const PASSWORD = 'correct horse battery';
// The 40 on PostgreSQL, the engine of several hosts; fewer for SQLite's single-host variant.
const LOGINS = databaseKind() === 'postgres' ? 40 : 10;

describe(`two hosts, each with its own DATA_DIR, on one database, configured by deploy/lab.env (${databaseKind()})`, () => {
  let database: TestDatabase;
  let mailbox: Mailbox;
  const dataDirs: string[] = [];
  const servers: ResultPromise[] = [];
  const urls: string[] = [];

  /** deploy/lab.env as systemd passes it to the unit, pointed at this test's database, mail server and a new DATA_DIR. */
  function hostEnv(): Record<string, string> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-host-'));
    dataDirs.push(dataDir);
    const env = { ...parseSystemdEnv(fs.readFileSync('deploy/lab.env', 'utf8')), DATABASE_URL: databaseUrl(database), DATA_DIR: dataDir, SMTP_URL: mailbox.url };
    expect(env).not.toHaveProperty('SECRET_KEY');
    // Nothing of the test process (TEST_DATABASE_URL, ...) reaches the servers: only the file and PATH.
    return { ...env, PATH: process.env.PATH! };
  }

  /** `ExecStart=/usr/bin/node bin/labctl serve --port %i --host 127.0.0.1`, on a free port. */
  async function serve(): Promise<string> {
    const server = startServe({ env: hostEnv(), extendEnv: false });
    servers.push((await server).child);
    return (await server).url;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    mailbox = await startMailbox();
    // Section 1 of the document: the schema is created with `labctl migrate latest` before the units start.
    const migrated = await execa('node', [LABCTL, 'migrate', 'latest'], { env: hostEnv(), extendEnv: false, reject: false });
    expect(migrated.exitCode, String(migrated.stderr)).toBe(0);
    urls.push(...(await Promise.all([serve(), serve()])));
  }, 120_000);

  afterAll(async () => {
    // systemctl stop: each instance finishes and exits 0.
    const exitCodes = await stopServes(servers);
    await Promise.all([mailbox?.close(), database?.drop()]);
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
    expect(exitCodes).toEqual(servers.map(() => 0));
  });

  /** A browser behind the proxy: its own address in X-Forwarded-For. */
  const browser = (instance: number, address: string) => new HttpClient(urls[instance], { 'X-Forwarded-For': address, 'X-Forwarded-Proto': 'https' });

  /** Logs in with the password on one instance and the mailed code on the other; answers the session token. */
  async function loginAcross(email: string, ask: number, address: string): Promise<string> {
    const mark = mailbox.mark();
    const asked = await browser(ask, address).post('/login', { identifier: email, password: PASSWORD });
    expect(asked.status, asked.text).toBe(200);
    const mail = await mailbox.waitFor(email, (m) => m.subject.includes('login code'), { after: mark, timeoutMs: 60_000 });
    const code = /(\d{6})/.exec(mail.text)![1];
    const entered = browser(1 - ask, address);
    const verified = await entered.post('/verify-otp', { username: email, otp: code });
    expect(verified.status, `${email}: ${verified.text}`).toBe(200);
    return entered.cookie('lab_session')!;
  }

  const sessionOn = (instance: number, token: string, address: string) => {
    const http = browser(instance, address);
    http.setCookie('lab_session', token);
    return http;
  };

  it(`${LOGINS} logins, each code asked on one instance and entered on the other, all succeed; each session works on both`, async () => {
    const clients = [];
    for (let i = 0; i < LOGINS; i += 1) {
      clients.push(
        await createClientAccount(
          database.db,
          systemClock,
          { email: `host-client-${i}@example.test`, username: null, password: PASSWORD, firstName: 'Host', lastName: `Client ${i}`, contactNumber: '639171234567', verified: true },
          { companyName: 'Example Meats Corp.', ltoNo: `LTO-${i}`, classification: 'Importer' },
        ),
      );
    }
    const outcomes = await Promise.all(
      clients.map(async (client, i) => {
        const address = `203.0.113.${i + 1}`;
        const token = await loginAcross(client.email, i % 2, address);
        const me = await Promise.all([0, 1].map((instance) => sessionOn(instance, token, address).get('/me')));
        return me.map((r) => `${r.status} ${(r.body as { email?: string }).email}`);
      }),
    );
    expect(outcomes).toEqual(clients.map((c) => [`200 ${c.email}`, `200 ${c.email}`]));
    // One secret, in the database; none in either machine's DATA_DIR.
    expect(Number((await database.db('settings').where({ key: 'server_secret' }).count({ n: '*' }))[0].n)).toBe(1);
    for (const dir of dataDirs) expect(fs.existsSync(path.join(dir, 'secret.key'))).toBe(false);
  }, 180_000);

  it('a request approved on one instance is tested and released on the other, and its certificate read on the first', async () => {
    const staff = await createUser(database.db, systemClock, { email: 'host-staff@example.test', username: null, password: PASSWORD, firstName: 'Host', lastName: 'Staff', contactNumber: '639171234567', role: 'staff', verified: true });
    const tester = await createUser(database.db, systemClock, { email: 'host-chem@example.test', username: null, password: PASSWORD, firstName: 'Host', lastName: 'Tester', contactNumber: '639171234567', role: 'chemtester', verified: true });
    const owner = await createClientAccount(
      database.db,
      systemClock,
      { email: 'host-owner@example.test', username: null, password: PASSWORD, firstName: 'Host', lastName: 'Owner', contactNumber: '639171234567', verified: true },
      { companyName: 'Example Meats Corp.', ltoNo: 'LTO-OWN', classification: 'Importer' },
    );
    const [request] = await insertRequests(database.db, [{ clientUserId: owner.id, tests: ['betaLactams'], samples: ['Beef'] }]);
    const staffToken = await loginAcross(staff.email, 0, '198.51.100.1');
    const testerToken = await loginAcross(tester.email, 1, '198.51.100.2');
    const ownerToken = await loginAcross(owner.email, 1, '198.51.100.3');

    const approved = await sessionOn(0, staffToken, '198.51.100.1').put(`/requests/approve/${request.requestId}`);
    expect(approved.status, approved.text).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const written = await sessionOn(1, testerToken, '198.51.100.2').put(`/chemMicrobialTestResults/${request.sampleIds[0]}`, {
      betaLactams: 'Not detected',
      betaLactamsRemarks: 'negative',
      betaLactamsAnalysisDate: today,
    });
    expect(written.status, written.text).toBe(200);
    const released = await sessionOn(1, staffToken, '198.51.100.1').put(`/requests/approveRelease/${request.requestId}`, { password: PASSWORD });
    expect(released.status, released.text).toBe(200);
    expect((await database.db('requests').where('id', request.requestId).first('status')).status).toBe('RELEASED');

    const certificate = await sessionOn(0, ownerToken, '198.51.100.3').get(`/requests/${request.requestId}/certificate.pdf`);
    expect(certificate.status).toBe(200);
    expect(certificate.headers.get('content-type')).toContain('application/pdf');
    // The proxy's X-Forwarded-For is trusted (TRUST_PROXY=true): the audit trail has the callers' addresses.
    const addresses = await database.db('audit_log').where({ request_id: request.requestId }).whereIn('action', ['request.approve', 'request.release']).pluck('ip');
    expect(addresses.length).toBeGreaterThan(0);
    expect(new Set(addresses)).toEqual(new Set(['198.51.100.1']));
  }, 120_000);
});
