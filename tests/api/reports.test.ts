import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests, type ResultSeed } from '../../fixtures/requests.js';
import { monthsOfYear } from '../../server/domain/reportShape.js';
import type { Role } from '../../server/domain/roles.js';
import type { User } from '../../server/services/users.js';
import type { HttpClient } from '../helpers/httpClient.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { databaseKind } from '../helpers/testDatabase.js';

const result = (remark: 'positive' | 'negative' | null, analysisDate: string | null): ResultSeed => ({ value: 'seen', remark, analysisDate });

describe(`monthly reports (${databaseKind()})`, () => {
  let app: TestApp;
  let staff: { user: User; http: HttpClient };

  beforeAll(async () => {
    app = await startTestApp();
    staff = await app.signedIn('staff');
    const client = await app.createUser('client');
    const c = client.id;
    await insertRequests(app.db, [
      // 3 samples: E. coli positive in January (x2) and negative in March; plate count negative in January
      {
        clientUserId: c,
        tests: ['eColi', 'standardPlateCount'],
        samples: ['A', 'B', 'C'],
        status: 'FOR_RELEASE',
        result: (p, code) => (code === 'eColi' ? result(p < 3 ? 'positive' : 'negative', p < 3 ? '2025-01-20' : '2025-03-02') : result('negative', '2025-01-21')),
      },
      // released results count too; the E. coli O157 test is reported as eColiAndEColi0O157
      { clientUserId: c, tests: ['eColiAndeColi0O157'], status: 'RELEASED', result: () => result('positive', '2025-03-30') },
      // no analysis date: counted in the month it was saved (the submission date of the fixture)
      { clientUserId: c, tests: ['eColi'], status: 'FOR_TESTING', submissionDate: '2025-07-09T08:00:00.000Z', result: () => result('negative', null) },
      // not counted: a value without a remark, a rejected request, another year
      { clientUserId: c, tests: ['eColi'], status: 'FOR_TESTING', result: () => result(null, '2025-01-05') },
      { clientUserId: c, tests: ['eColi'], status: 'FOR_RELEASE', result: () => result('positive', '2025-01-05') },
      { clientUserId: c, tests: ['eColi'], status: 'FOR_RELEASE', result: () => result('positive', '2024-12-31') },
      // ELISA: beta_agonists is reported as betaAgonists
      { clientUserId: c, tests: ['beta_agonists'], status: 'FOR_RELEASE', result: () => result('positive', '2025-11-11') },
    ]);
    // the request with a positive on 2025-01-05 gets rejected at the desk
    const rejected = await app.db('analyses').where({ analysis_date: '2025-01-05', remark: 'positive' }).first('request_id');
    expect((await staff.http.put(`/requests/reject/${rejected.request_id}`)).status).toBe(200);
  });
  afterAll(() => app?.close());

  it('counts positives and negatives per test and month of the chosen year, zero months included', async () => {
    const res = await staff.http.get('/api/reports/microbioreport?year=2025');
    expect(res.status).toBe(200);
    const eColi = res.body.eColiPosNegCountsByMonthAndYear;
    expect(Object.keys(eColi)).toEqual(monthsOfYear(2025));
    expect(eColi['2025-01']).toEqual({ positive: 2, negative: 0 });
    expect(eColi['2025-03']).toEqual({ positive: 0, negative: 1 });
    expect(eColi['2025-07']).toEqual({ positive: 0, negative: 1 });
    expect(eColi['2025-02']).toEqual({ positive: 0, negative: 0 });
    expect(res.body.standardPlateCountPosNegCountsByMonthAndYear['2025-01']).toEqual({ positive: 0, negative: 3 });
    expect(res.body.eColiAndEColi0O157PosNegCountsByMonthAndYear['2025-03']).toEqual({ positive: 1, negative: 0 });
    expect(Object.keys(res.body)).toHaveLength(9);
  });

  it('filters by year', async () => {
    const res = await staff.http.get('/api/reports/microbioreport?year=2024');
    expect(res.body.eColiPosNegCountsByMonthAndYear['2024-12']).toEqual({ positive: 1, negative: 0 });
    expect(res.body.eColiPosNegCountsByMonthAndYear['2024-01']).toEqual({ positive: 0, negative: 0 });
    expect(Object.keys(res.body.eColiPosNegCountsByMonthAndYear)).toEqual(monthsOfYear(2024));
  });

  it('defaults to the current year', async () => {
    const res = await staff.http.get('/api/reports/chemelisareport');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.betaAgonistsPosNegCountsByMonthAndYear)).toEqual(monthsOfYear(app.clock.now().getUTCFullYear()));
    const y2025 = await staff.http.get('/api/reports/chemelisareport?year=2025');
    expect(y2025.body.betaAgonistsPosNegCountsByMonthAndYear['2025-11']).toEqual({ positive: 1, negative: 0 });
  });

  it('has every test of the other groups', async () => {
    const micro = await staff.http.get('/api/reports/chemmicrobialreport?year=2025');
    expect(Object.keys(micro.body)).toEqual(
      ['betaLactams', 'tetracyclines', 'sulfonamides', 'aminoglycosides', 'macrolides', 'quinolones'].map((t) => `${t}PosNegCountsByMonthAndYear`),
    );
    const mol = await staff.http.get('/api/reports/molbioreport?year=2025');
    expect(Object.keys(mol.body)).toHaveLength(9);
    expect(mol.body.swinePosNegCountsByMonthAndYear['2025-06']).toEqual({ positive: 0, negative: 0 });
  });

  it('refuses a bad year or report name with a message', async () => {
    for (const query of ['year=abc', 'year=1999', 'year=2025.5']) {
      const res = await staff.http.get(`/api/reports/microbioreport?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^year: /);
    }
    const unknown = await staff.http.get('/api/reports/nosuchreport');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('microbioreport');
  });

  it("offers only the years in which the caller's reports have counts, most recent first", async () => {
    expect((await staff.http.get('/api/reports/years')).body).toEqual([2025, 2024]);
    // A tester's own discipline only: chemistry has its ELISA positive of 2025; molecular biology nothing yet.
    expect((await (await app.signedIn('chemtester')).http.get('/api/reports/years')).body).toEqual([2025]);
    expect((await (await app.signedIn('microbiotester')).http.get('/api/reports/years')).body).toEqual([2025, 2024]);
    expect((await (await app.signedIn('molbiotester')).http.get('/api/reports/years')).body).toEqual([]);
    expect((await (await app.signedIn('client')).http.get('/api/reports/years')).status).toBe(403);
    expect((await app.anonymous().get('/api/reports/years')).status).toBe(401);
  });

  const REPORTS = ['microbioreport', 'chemmicrobialreport', 'chemelisareport', 'molbioreport'] as const;
  const READERS: Record<(typeof REPORTS)[number], Role[]> = {
    microbioreport: ['staff', 'admin', 'microbiotester'],
    chemmicrobialreport: ['staff', 'admin', 'chemtester'],
    chemelisareport: ['staff', 'admin', 'chemtester'],
    molbioreport: ['staff', 'admin', 'molbiotester'],
  };

  it.each(REPORTS)('%s is read by the desk and the tester of its discipline only', async (report) => {
    for (const role of ['client', 'staff', 'admin', 'chemtester', 'microbiotester', 'molbiotester'] as Role[]) {
      const { http } = await app.signedIn(role);
      const res = await http.get(`/api/reports/${report}?year=2025`);
      expect(res.status, `${role} reading ${report}`).toBe(READERS[report].includes(role) ? 200 : 403);
    }
    expect((await app.anonymous().get(`/api/reports/${report}`)).status).toBe(401);
  });
});
