import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../fixtures/requests.js';
import { findRequest, listRequests, withSamples } from '../../server/services/requests/read.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { databaseKind } from '../helpers/testDatabase.js';

describe(`request fixtures and reads (${databaseKind()})`, () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('inserts requests in every status with analyses and gap-free control numbers', async () => {
    const client = await app.createUser('client');
    const seeded = await insertRequests(app.db, [
      { clientUserId: client.id, tests: ['eColi'], status: 'PENDING_REVIEW' },
      { clientUserId: client.id, tests: ['eColi', 'dog'], status: 'FOR_TESTING', samples: ['Beef', 'Pork'] },
      { clientUserId: client.id, tests: ['chloramphenicol'], status: 'RELEASED' },
    ]);
    expect(seeded.map((s) => s.controlNumber)).toEqual([null, '2026-0001', '2026-0002']);
    const counts = await app.db('analyses').where('request_id', seeded[1].requestId).count<{ n: number }[]>({ n: '*' });
    expect(Number(counts[0].n)).toBe(4);
    const released = await app.db('analyses').where('request_id', seeded[2].requestId).first();
    expect(released).toMatchObject({ remark: 'negative', report_month: '2026-03' });

    const view = await findRequest(app.db, seeded[1].requestId);
    expect(view).toMatchObject({ requestStatus: 'FOR_TESTING', microbio: true, molBio: true, chem: false, eColi: true, dog: true, cat: false, speciesIdentification: true });
    expect(view?.tests).toEqual(['eColi', 'dog']);
    const [withS] = await withSamples(app.db, [view!]);
    expect(withS.samples.map((s) => s.sampleTypeDescription)).toEqual(['Beef', 'Pork']);

    const pending = await listRequests(app.db, (q) => q.where('status', 'PENDING_REVIEW'));
    expect(pending.map((r) => r.requestId)).toEqual([seeded[0].requestId]);
  });
});
