// The monthly reports read counters kept by the writes; here they must give, after every kind of
// change, exactly the numbers of the GROUP BY over the analyses that the reports used to run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests, type RequestSeed } from '../../fixtures/requests.js';
import { seededRandom } from '../../fixtures/volume.js';
import { migrationSource } from '../../server/db/migrations/index.js';
import { inTransaction } from '../../server/db/transaction.js';
import { ANALYTES, analytesOfGroup, disciplineOfGroup, GROUPS, type Group } from '../../server/domain/catalog.js';
import { buildGroupReport, monthsOfYear, type GroupReport } from '../../server/domain/reportShape.js';
import { testerRoleOf } from '../../server/domain/roles.js';
import { monthlyReport } from '../../server/services/reports.js';
import { writeResults, type ResultEntry } from '../../server/services/results/write.js';
import type { User } from '../../server/services/users.js';
import type { HttpClient } from '../helpers/httpClient.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { databaseKind } from '../helpers/testDatabase.js';

const YEARS = [2025, 2026];

/** The reference: every analysis with a remark of a request that is not rejected, grouped. */
async function groupByReport(app: TestApp, group: Group, year: number): Promise<GroupReport> {
  const months = monthsOfYear(year);
  const rows: Array<{ test_code: string; report_month: string; remark: string; n: number | string }> = await app.db('analyses as a')
    .join('requests as r', 'r.id', 'a.request_id')
    .whereIn('a.test_code', analytesOfGroup(group).map((a) => a.code))
    .whereBetween('a.report_month', [months[0], months[11]])
    .whereIn('a.remark', ['positive', 'negative'])
    .whereNot('r.status', 'REJECTED')
    .groupBy('a.test_code', 'a.report_month', 'a.remark')
    .select('a.test_code', 'a.report_month', 'a.remark')
    .count({ n: '*' });
  return buildGroupReport(group, year, rows.map((r) => ({ testCode: r.test_code, month: r.report_month, remark: r.remark, count: Number(r.n) })));
}

async function expectReportsMatchGroupBy(app: TestApp): Promise<void> {
  for (const group of GROUPS) {
    for (const year of YEARS) {
      expect(await monthlyReport(app.db, group, year), `${group} ${year}`).toEqual(await groupByReport(app, group, year));
    }
  }
}

describe(`report counters against the GROUP BY (${databaseKind()})`, () => {
  let app: TestApp;
  let staff: { user: User; http: HttpClient };
  let testers: Record<Group, User>;
  const random = seededRandom(13);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];

  beforeAll(async () => {
    app = await startTestApp();
    staff = await app.signedIn('staff');
    const byDiscipline = {
      chem: await app.createUser(testerRoleOf('chem')),
      microbio: await app.createUser(testerRoleOf('microbio')),
      molbio: await app.createUser(testerRoleOf('molbio')),
    };
    testers = Object.fromEntries(GROUPS.map((g) => [g, byDiscipline[disciplineOfGroup(g)]])) as Record<Group, User>;
  });
  afterAll(() => app?.close());

  async function seedRequests(count: number, status?: RequestSeed['status']) {
    const client = await app.createUser('client');
    const statuses = ['FOR_TESTING', 'FOR_RELEASE', 'RELEASED', 'REJECTED'] as const;
    const seeds: RequestSeed[] = Array.from({ length: count }, () => ({
      clientUserId: client.id,
      tests: [...new Set([pick(ANALYTES).code, pick(ANALYTES).code, pick(ANALYTES).code])],
      samples: ['A', 'B'],
      status: status ?? pick(statuses),
      submissionDate: `${pick(YEARS)}-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}T08:00:00.000Z`,
      result: () => (random() < 0.3 ? null : { value: 'seen', remark: random() < 0.2 ? 'positive' : random() < 0.9 ? 'negative' : null, analysisDate: random() < 0.8 ? `${pick(YEARS)}-1${Math.floor(random() * 3)}-05` : null }),
    }));
    return insertRequests(app.db, seeds);
  }

  /** Random sets, edits and clears of the results of open requests, by their testers. */
  async function randomWrites(rounds: number) {
    for (let round = 0; round < rounds; round += 1) {
      const open: Array<{ request_id: number; sample_id: number; test_code: string; result_group: Group }> = await app.db('analyses as a')
        .join('requests as r', 'r.id', 'a.request_id')
        .whereIn('r.status', ['FOR_TESTING', 'FOR_RELEASE'])
        .select('a.request_id', 'a.sample_id', 'a.test_code', 'a.result_group');
      const group = pick(GROUPS);
      const mine = open.filter((a) => a.result_group === group);
      const chosen = new Map(Array.from({ length: 12 }, () => pick(mine)).filter(Boolean).map((a) => [`${a.sample_id}:${a.test_code}`, a]));
      const entries: ResultEntry[] = [...chosen.values()].map((a) => {
        const clear = random() < 0.25;
        return {
          requestId: Number(a.request_id),
          sampleId: Number(a.sample_id),
          testCode: a.test_code,
          value: clear ? '' : `v${round}`,
          remark: clear ? '' : pick(['positive', 'negative', ''] as const),
          analysisDate: clear || random() < 0.2 ? null : `${pick(YEARS)}-0${1 + Math.floor(random() * 9)}-2${Math.floor(random() * 8)}`,
        };
      });
      if (entries.length === 0) continue;
      const tester = testers[group];
      await inTransaction(app.db, (trx) => writeResults(trx, { clock: app.clock, actor: { id: tester.id, role: tester.role }, entries }));
    }
  }

  it('match after seeded requests in every status', async () => {
    await seedRequests(40);
    await expectReportsMatchGroupBy(app);
    expect(await app.db('report_counts').sum({ n: 'n' }).first()).not.toEqual({ n: 0 });
  });

  it('match after random results are set, edited and cleared', async () => {
    await randomWrites(15);
    await expectReportsMatchGroupBy(app);
  });

  it('match after requests with results are rejected at the desk, and after more writes', async () => {
    const forRelease = await seedRequests(4, 'FOR_RELEASE');
    await expectReportsMatchGroupBy(app);
    for (const { requestId: id } of forRelease) expect((await staff.http.put(`/requests/reject/${id}`)).status).toBe(200);
    await expectReportsMatchGroupBy(app);
    await seedRequests(10);
    await randomWrites(10);
    await expectReportsMatchGroupBy(app);
  });

  it('are rebuilt by the migration from the analyses already there', async () => {
    const before = await monthlyReport(app.db, 'microbio', 2025);
    await app.db.migrate.down({ migrationSource, name: '007_report_counts' });
    expect(await app.db.schema.hasTable('report_counts')).toBe(false);
    await app.db.migrate.up({ migrationSource, name: '007_report_counts' });
    expect(await monthlyReport(app.db, 'microbio', 2025)).toEqual(before);
    await expectReportsMatchGroupBy(app);
  });
});
