// kill -9 of a running `labctl serve` (the built one) on a SQLite file during concurrent submissions
// and result writes: after a restart every acknowledged write is there, and nothing is half-stored
// (no request without its samples and tests). Needs `npm run build` first, like the CLI tests.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../../fixtures/requests.js';
import { buildSubmitPayload } from '../../../server/domain/requestPayload.js';
import { createDb, type Db } from '../../../server/db/knex.js';
import { migrateLatest } from '../../../server/db/migrate.js';
import { systemClock } from '../../../server/clock.js';
import { createClientAccount } from '../../../server/services/clients.js';
import { createSession } from '../../../server/services/sessions.js';
import { createUser } from '../../../server/services/users.js';
import { HttpClient } from '../../helpers/httpClient.js';
import { databaseKind } from '../../helpers/testDatabase.js';

const LABCTL = path.resolve('bin/labctl');
const POLICY = { idleMinutes: 600, maxHours: 12 };
const WRITERS = 8;

function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn('node', [LABCTL, 'serve', '--port', '0', '--host', '127.0.0.1'], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', SMTP_URL: '', LOG_LEVEL: 'silent', TEST_DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const port = /Listening on http:\/\/localhost:(\d+)/.exec(output)?.[1];
      if (port) resolve({ child, url: `http://127.0.0.1:${port}` });
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`labctl serve exited (${code}): ${output}`)));
  });
}

const exited = (child: ChildProcess) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));

describe(`kill -9 during writes (SQLite; suite on ${databaseKind()})`, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-crash-'));
  let server: ChildProcess | undefined;
  afterAll(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGKILL');
      await exited(server);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged submission and result, and no request without samples and tests', async () => {
    // Accounts, sessions and requests to test, written before the server starts.
    let db: Db = createDb({ client: 'sqlite3', filename: path.join(dataDir, 'lab.sqlite') });
    await migrateLatest(db);
    const client = await createClientAccount(db, systemClock, { email: 'crash@example.test', username: null, password: 'correct horse battery', firstName: 'C', lastName: 'R', contactNumber: '639171234567', verified: true }, { companyName: 'Crash Meats', ltoNo: 'LTO-1', classification: 'Importer' });
    const tester = await createUser(db, systemClock, { email: 'micro@example.test', username: null, password: 'correct horse battery', firstName: 'M', lastName: 'T', contactNumber: '639171234567', verified: true, role: 'microbiotester' });
    const open = await insertRequests(db, Array.from({ length: 4 }, () => ({ clientUserId: client.id, tests: ['eColi'], status: 'FOR_TESTING' as const, samples: Array.from({ length: 25 }, (_, i) => `Sample ${i}`) })));
    const clientToken = (await createSession(db, systemClock, POLICY, client.id)).token;
    const testerToken = (await createSession(db, systemClock, POLICY, tester.id)).token;
    await db.destroy();

    const started = await startServer(dataDir);
    server = started.child;
    const as = (token: string) => {
      const http = new HttpClient(started.url);
      http.setCookie('lab_session', token);
      return http;
    };
    const submission = (n: number) =>
      buildSubmitPayload(
        {
          representativeName: 'crash', contactNumber: '639171234567', emailAddress: '', companyName: '', clientClassification: 'Importer', ltoNumber: '',
          testingPurpose: 'Local_Trade', otherTestingPurpose: '', sampleCategory: 'Walk-in', lotBatchNo: `LOT-${n}`, sampleSource: '', productionDate: '',
          expiryDate: '', samplingDate: '', samplerName: '', samples: Array.from({ length: 1 + (n % 5) }, (_, i) => `Meat ${n}.${i}`),
          tests: ['eColi', 'dog'], gramPositiveAst: '', gramNegativeAst: '',
        },
        new Date(),
      );
    const submitted: Array<{ requestId: number; samples: number }> = [];
    const results: Array<{ sampleId: number; value: string }> = [];
    const samples = open.flatMap((r) => r.sampleIds);
    let killed = false;
    let sequence = 0;

    // Writers keep going until the server dies under them; only answers that arrived count.
    const writer = async (w: number) => {
      while (!killed) {
        sequence += 1;
        const n = sequence;
        try {
          if (w % 2 === 0) {
            const body = submission(n);
            const res = await as(clientToken).post(`/requests/submitrequest/${client.id}`, body);
            if (res.status === 201) submitted.push({ requestId: res.body.requestId, samples: body.sample.length });
            else if (!killed) throw new Error(`submit answered ${res.status}: ${res.text}`);
          } else {
            // Each result writer has samples of its own, so its acknowledged values per sample only grow.
            const own = samples.filter((_, i) => i % WRITERS === w);
            const sampleId = own[n % own.length];
            const value = `${n}`;
            const res = await as(testerToken).put(`/microbioTestResults/${sampleId}`, { eColi: value });
            if (res.status === 200) results.push({ sampleId, value });
            else if (!killed) throw new Error(`result write answered ${res.status}: ${res.text}`);
          }
        } catch (err) {
          if (!killed) throw err;
        }
      }
    };
    const writing = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    // Kill once a good number of writes were acknowledged, with more in flight.
    await new Promise<void>((resolve) => {
      const check = () => (submitted.length >= 30 && results.length >= 30 ? resolve() : setImmediate(check));
      check();
    });
    killed = true;
    server.kill('SIGKILL');
    await exited(server);
    await writing;

    const restarted = await startServer(dataDir);
    server = restarted.child;
    db = createDb({ client: 'sqlite3', filename: path.join(dataDir, 'lab.sqlite') });
    try {
      const countsBy = async (table: string) =>
        new Map((await db(table).select('request_id').count({ n: '*' }).groupBy('request_id')).map((r: Record<string, unknown>) => [Number(r.request_id), Number(r.n)]));
      const sampleCounts = await countsBy('samples');
      const testCounts = await countsBy('request_tests');
      const requestIds = (await db('requests').pluck('id')).map(Number);
      expect(requestIds.filter((id) => !sampleCounts.get(id) || !testCounts.get(id))).toEqual([]);
      expect(submitted.filter((s) => sampleCounts.get(s.requestId) !== s.samples || testCounts.get(s.requestId) !== 2)).toEqual([]);
      // The last acknowledged value of each sample is the stored one, or a later write that also committed.
      const stored = new Map((await db('analyses').whereIn('sample_id', samples).select('sample_id', 'value')).map((r) => [Number(r.sample_id), r.value as string]));
      const lastAcknowledged = new Map<number, string>();
      for (const r of results) lastAcknowledged.set(r.sampleId, r.value);
      expect([...lastAcknowledged].filter(([sampleId, value]) => Number(stored.get(sampleId)) < Number(value))).toEqual([]);
      const audited = (await db('audit_log').where({ action: 'request.submit' }).pluck('request_id')).map(Number);
      expect(submitted.filter((s) => !audited.includes(s.requestId))).toEqual([]);
    } finally {
      await db.destroy();
    }
    // The restarted server answers.
    expect((await new HttpClient(restarted.url).get('/healthz')).status).toBe(200);
  }, 180_000);
});
