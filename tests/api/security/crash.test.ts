// A running `labctl serve` (the built one) on a SQLite file stopped during concurrent submissions and
// result writes. kill -9: after a restart every acknowledged write is there, and nothing is
// half-stored (no request without its samples and tests). Ctrl-C: every call taken is answered and
// finishes before the database closes, though the writers keep sending on their keep-alive
// connections, and the server stops. Needs `npm run build` first, like the CLI tests.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
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

interface Server {
  child: ChildProcess;
  url: string;
  /** What the server printed so far; its log holds errors only. */
  output(): string;
}

/** Every server a test started, ended after each test however it went (labctl serve spawns no children). */
const running = new Set<ChildProcess>();

function startServer(dataDir: string): Promise<Server> {
  const child = spawn('node', [LABCTL, 'serve', '--port', '0', '--host', '127.0.0.1'], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', SMTP_URL: '', LOG_LEVEL: 'error', TEST_DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const port = /Listening on http:\/\/localhost:(\d+)/.exec(output)?.[1];
      if (port) resolve({ child, url: `http://127.0.0.1:${port}`, output: () => output });
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`labctl serve exited (${code}): ${output}`)));
  });
}

const exited = (child: ChildProcess) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));

/** Kills every server the test left running and waits until each is gone. */
async function stopServers() {
  await Promise.all(
    [...running].map(async (child) => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited(child);
      running.delete(child);
    }),
  );
}

/** A migrated database with a client, a microbiology tester, their sessions and four requests to test. */
async function prepare(filename: string) {
  const db: Db = createDb({ client: 'sqlite3', filename });
  try {
    await migrateLatest(db);
    const client = await createClientAccount(db, systemClock, { email: 'crash@example.test', username: null, password: 'correct horse battery', firstName: 'C', lastName: 'R', contactNumber: '639171234567', verified: true }, { companyName: 'Crash Meats', ltoNo: 'LTO-1', classification: 'Importer' });
    const tester = await createUser(db, systemClock, { email: 'micro@example.test', username: null, password: 'correct horse battery', firstName: 'M', lastName: 'T', contactNumber: '639171234567', verified: true, role: 'microbiotester' });
    const open = await insertRequests(db, Array.from({ length: 4 }, () => ({ clientUserId: client.id, tests: ['eColi'], status: 'FOR_TESTING' as const, samples: Array.from({ length: 25 }, (_, i) => `Sample ${i}`) })));
    const clientToken = (await createSession(db, systemClock, POLICY, client.id)).token;
    const testerToken = (await createSession(db, systemClock, POLICY, tester.id)).token;
    return { clientId: client.id, samples: open.flatMap((r) => r.sampleIds), clientToken, testerToken };
  } finally {
    await db.destroy();
  }
}

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

/**
 * WRITERS callers, half submitting, half writing results, each on its own keep-alive connection,
 * until `stopped()`. Only answers that arrived count; an answer other than success fails them while
 * the server is `up()`, and a failed connection is ignored once it is not.
 */
function startWriters(url: string, setup: Awaited<ReturnType<typeof prepare>>, stopped: () => boolean, up: () => boolean) {
  const submitted: Array<{ requestId: number; samples: number }> = [];
  const results: Array<{ sampleId: number; value: string }> = [];
  const answers: number[] = [];
  const as = (token: string) => {
    const http = new HttpClient(url);
    http.setCookie('lab_session', token);
    return http;
  };
  let sequence = 0;
  const writer = async (w: number) => {
    const http = as(w % 2 === 0 ? setup.clientToken : setup.testerToken);
    while (!stopped()) {
      sequence += 1;
      const n = sequence;
      try {
        if (w % 2 === 0) {
          const body = submission(n);
          const res = await http.post(`/requests/submitrequest/${setup.clientId}`, body);
          answers.push(res.status);
          if (res.status === 201) submitted.push({ requestId: res.body.requestId, samples: body.sample.length });
          else if (up()) throw new Error(`submit answered ${res.status}: ${res.text}`);
        } else {
          // Each result writer has samples of its own, so its acknowledged values per sample only grow.
          const own = setup.samples.filter((_, i) => i % WRITERS === w);
          const sampleId = own[n % own.length];
          const value = `${n}`;
          const res = await http.put(`/microbioTestResults/${sampleId}`, { eColi: value });
          answers.push(res.status);
          if (res.status === 200) results.push({ sampleId, value });
          else if (up()) throw new Error(`result write answered ${res.status}: ${res.text}`);
        }
      } catch (err) {
        if (up()) throw err;
      }
    }
  };
  const writing = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  /** Resolves once a good number of writes of each kind were acknowledged. */
  const acknowledged = (n: number) =>
    new Promise<void>((resolve) => {
      const check = () => (submitted.length >= n && results.length >= n ? resolve() : setImmediate(check));
      check();
    });
  return { submitted, results, answers, writing, acknowledged };
}

describe(`kill -9 and Ctrl-C during writes (SQLite; suite on ${databaseKind()})`, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-crash-'));
  afterEach(stopServers);
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('keeps every acknowledged submission and result, and no request without samples and tests', async () => {
    const filename = path.join(dataDir, 'lab.sqlite');
    const setup = await prepare(filename);
    const started = await startServer(dataDir);
    let killed = false;
    const writers = startWriters(started.url, setup, () => killed, () => !killed);
    // Kill once a good number of writes were acknowledged, with more in flight.
    await writers.acknowledged(30);
    killed = true;
    started.child.kill('SIGKILL');
    await exited(started.child);
    await writers.writing;
    const { submitted, results } = writers;
    const { samples } = setup;

    const restarted = await startServer(dataDir);
    const db = createDb({ client: 'sqlite3', filename });
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

  it('on Ctrl-C answers every call it took, closes busy connections and stops, though callers keep sending', async () => {
    const dir = fs.mkdtempSync(path.join(dataDir, 'sigint-'));
    const setup = await prepare(path.join(dir, 'lab.sqlite'));
    const started = await startServer(dir);
    let signalled = false;
    let gone = false;
    const stop = exited(started.child).then(() => (gone = true));
    // The writers only stop when the process is gone: a server that waited for them would never stop.
    const writers = startWriters(started.url, setup, () => gone, () => !signalled);
    await writers.acknowledged(20);
    signalled = true;
    started.child.kill('SIGINT');
    await stop;
    await writers.writing;

    expect(started.child.exitCode).toBe(0);
    expect(started.output()).toContain('Stopped.');
    // Nothing cut after the grace period, and no call failed on a closed database.
    expect(started.output()).not.toContain('Calls still open');
    expect(started.output()).not.toContain('"level":50');
    expect(writers.answers.filter((status) => status !== 200 && status !== 201)).toEqual([]);
    const db = createDb({ client: 'sqlite3', filename: path.join(dir, 'lab.sqlite') });
    try {
      const stored = new Set((await db('requests').pluck('id')).map(Number));
      expect(writers.submitted.filter((s) => !stored.has(s.requestId))).toEqual([]);
    } finally {
      await db.destroy();
    }
  }, 60_000);
});
