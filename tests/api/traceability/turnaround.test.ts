import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../../fixtures/requests.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

describe(`turnaround dashboard (${databaseKind()})`, () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
    app.clock.set('2026-03-20T09:00:00.000Z');
  });
  afterAll(() => app?.close());

  it('counts open requests and late ones per discipline, and lists them late first', async () => {
    const client = await app.createUser('client');
    const seeded = await insertRequests(app.db, [
      { clientUserId: client.id, tests: ['eColi', 'dog'], status: 'FOR_TESTING', submissionDate: '2026-03-02T08:00:00.000Z' },
      { clientUserId: client.id, tests: ['betaLactams'], status: 'FOR_RELEASE', submissionDate: '2026-03-10T08:00:00.000Z' },
      { clientUserId: client.id, tests: ['eColi'], submissionDate: '2026-03-19T08:00:00.000Z' },
      { clientUserId: client.id, tests: ['eColi'], status: 'RELEASED' },
    ]);
    const due = ['2026-03-11', '2026-03-20', '2026-03-30'];
    for (const [i, d] of due.entries()) await app.db('requests').where('id', seeded[i].requestId).update({ due_date: d });

    const { http } = await app.signedIn('staff');
    const res = await http.get('/requests/turnaround');
    expect(res.status).toBe(200);
    expect(res.body.today).toBe('2026-03-20');
    expect(res.body.disciplines).toEqual([
      { family: 'microbio', label: 'Microbiological', open: 2, late: 1, oldestSubmission: '2026-03-02T08:00:00.000Z' },
      { family: 'chem', label: 'Chemical', open: 1, late: 0, oldestSubmission: '2026-03-10T08:00:00.000Z' },
      { family: 'molBio', label: 'Molecular Biology', open: 1, late: 1, oldestSubmission: '2026-03-02T08:00:00.000Z' },
    ]);
    expect(res.body.requests.map((r: { requestId: number; ageDays: number; daysLate: number; families: string[] }) => [r.requestId, r.ageDays, r.daysLate, r.families])).toEqual([
      [seeded[0].requestId, 18, 9, ['microbio', 'molBio']],
      [seeded[1].requestId, 10, 0, ['chem']],
      [seeded[2].requestId, 1, 0, ['microbio']],
    ]);
  });

  it('is for the desk only', async () => {
    expect((await app.anonymous().get('/requests/turnaround')).status).toBe(401);
    for (const role of ['client', 'chemtester', 'microbiotester', 'molbiotester'] as const) {
      expect((await (await app.signedIn(role)).http.get('/requests/turnaround')).status).toBe(403);
    }
  });
});
