// Two servers on one database (a second `labctl serve` on the same SQLite file, or two instances on
// one PostgreSQL): concurrent writes through both are all answered, never with a 5xx.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../../fixtures/requests.js';
import { createApp } from '../../../server/app.js';
import { createDb, type Db } from '../../../server/db/knex.js';
import { HttpClient } from '../../helpers/httpClient.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

const REQUESTS = 30;

describe(`two servers on one database (${databaseKind()})`, () => {
  let app: TestApp;
  let secondDb: Db;
  let second: Server;
  let secondUrl: string;
  beforeAll(async () => {
    app = await startTestApp();
    secondDb = createDb(app.config.database);
    second = await new Promise((resolve) => {
      const s = createApp({ ...app.deps, db: secondDb, uiDir: path.join(os.tmpdir(), 'lab-no-ui') }).listen(0, '127.0.0.1', () => resolve(s));
    });
    secondUrl = `http://127.0.0.1:${(second.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => second?.close(resolve));
    await secondDb?.destroy();
    await app?.close();
  });

  it('approves requests through both at once: every call succeeds and control numbers stay gap-free', async () => {
    const client = await app.createUser('client');
    const seeded = await insertRequests(app.db, Array.from({ length: REQUESTS }, () => ({ clientUserId: client.id, tests: ['eColi', 'dog'] })));
    const { http } = await app.signedIn('staff');
    const viaSecond = new HttpClient(secondUrl);
    viaSecond.setCookie('lab_session', http.cookie('lab_session')!);
    const answers = await Promise.all(seeded.map((s, i) => (i % 2 ? viaSecond : http).put(`/requests/approve/${s.requestId}`)));
    expect(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.text}`)).toEqual([]);
    const numbers = answers.map((a) => Number(String(a.body.controlNumber).split('-')[1])).sort((x, y) => x - y);
    expect(numbers).toEqual(Array.from({ length: REQUESTS }, (_, i) => i + 1));
  }, 120_000);
});
