import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../../fixtures/requests.js';
import { refreshProgress } from '../../../server/db/requestProgress.js';
import { QUEUE_EXPORT_CHUNK } from '../../../server/domain/queue.js';
import type { Turnaround, TurnaroundWeeks } from '../../../server/domain/turnaround.js';
import type { HttpClient, HttpResponse } from '../../helpers/httpClient.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

const nextLink = (res: HttpResponse) => /^<([^>]+)>; rel="next"$/.exec(res.headers.get('Link') ?? '')?.[1];
const cursor = (parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString('base64url');

describe(`turnaround dashboard (${databaseKind()})`, () => {
  let app: TestApp;
  let staff: HttpClient;
  let clientUserId: number;
  beforeAll(async () => {
    app = await startTestApp();
    app.clock.set('2026-03-20T09:00:00.000Z');
    staff = (await app.signedIn('staff')).http;
    clientUserId = (await app.createUser('client')).id;
  });
  afterAll(() => app?.close());

  /** Sets due dates as a writer would, with the progress rows the counts read. */
  async function setDueDates(dues: Array<[number, string | null]>): Promise<void> {
    for (const [id, due] of dues) await app.db('requests').where('id', id).update({ due_date: due });
    await refreshProgress(app.db, dues.map(([id]) => id));
  }

  // The first test's open requests, which the paging test lists with its own.
  let earlier: number[] = [];

  it('counts open requests and late ones per discipline, and lists them late first', async () => {
    const seeded = await insertRequests(app.db, [
      { clientUserId, tests: ['eColi', 'dog'], status: 'FOR_TESTING', submissionDate: '2026-03-02T08:00:00.000Z' },
      { clientUserId, tests: ['betaLactams'], status: 'FOR_RELEASE', submissionDate: '2026-03-10T08:00:00.000Z' },
      { clientUserId, tests: ['eColi'], submissionDate: '2026-03-19T08:00:00.000Z' },
      { clientUserId, tests: ['eColi'], status: 'RELEASED' },
    ]);
    earlier = seeded.slice(0, 3).map((s) => s.requestId);
    await setDueDates([[earlier[0], '2026-03-11'], [earlier[1], '2026-03-20'], [earlier[2], '2026-03-30']]);

    const res = await staff.get('/requests/turnaround');
    expect(res.status).toBe(200);
    expect(res.body.today).toBe('2026-03-20');
    expect(res.body.disciplines).toEqual([
      { family: 'microbio', label: 'Microbiological', open: 2, late: 1, oldestSubmission: '2026-03-02T08:00:00.000Z' },
      { family: 'chem', label: 'Chemical', open: 1, late: 0, oldestSubmission: '2026-03-10T08:00:00.000Z' },
      { family: 'molBio', label: 'Molecular Biology', open: 1, late: 1, oldestSubmission: '2026-03-02T08:00:00.000Z' },
    ]);
    expect(res.body.requests.map((r: { requestId: number; ageDays: number; daysLate: number; families: string[] }) => [r.requestId, r.ageDays, r.daysLate, r.families])).toEqual([
      [earlier[0], 18, 9, ['microbio', 'molBio']],
      [earlier[1], 10, 0, ['chem']],
      [earlier[2], 1, 0, ['microbio']],
    ]);
    expect(res.headers.get('X-Total-Count')).toBe('3');
    expect(res.headers.get('Link')).toBeNull();
  });

  it('pages through every open request in urgency order: most days late first, then due date, submission and id, no due date last', async () => {
    const [mostLate, earlierSubmitted, sameSubmission, noDueDate, pending] = (
      await insertRequests(app.db, [
        { clientUserId, tests: ['salmonellaSp'], status: 'FOR_TESTING', submissionDate: '2026-02-20T08:00:00.000Z' },
        { clientUserId, tests: ['chloramphenicol'], status: 'FOR_RELEASE', submissionDate: '2026-03-01T08:00:00.000Z' },
        { clientUserId, tests: ['cat'], status: 'FOR_TESTING', submissionDate: '2026-03-02T08:00:00.000Z' },
        { clientUserId, tests: ['eColi'], status: 'FOR_TESTING', submissionDate: '2026-01-05T08:00:00.000Z' },
        { clientUserId, tests: ['betaLactams'], submissionDate: '2026-03-18T08:00:00.000Z' },
      ])
    ).map((s) => s.requestId);
    await setDueDates([[mostLate, '2026-03-01'], [earlierSubmitted, '2026-03-11'], [sameSubmission, '2026-03-11'], [noDueDate, null], [pending, '2026-03-25']]);

    const pages: HttpResponse<Turnaround>[] = [];
    for (let path: string | undefined = '/requests/turnaround?limit=3'; path; path = nextLink(pages.at(-1)!)) {
      const res = await staff.get<Turnaround>(path);
      expect(res.status).toBe(200);
      pages.push(res);
    }
    const rows = pages.map((p) => p.body.requests.map((r) => [r.requestId, r.daysLate]));
    expect(rows).toEqual([
      [[mostLate, 19], [earlierSubmitted, 9], [earlier[0], 9]],
      // Same due date and submission as the one before: the larger id comes after.
      [[sameSubmission, 9], [earlier[1], 0], [pending, 0]],
      [[earlier[2], 0], [noDueDate, 0]],
    ]);
    for (const page of pages) {
      expect(page.headers.get('X-Total-Count')).toBe('8');
      expect(page.body.today).toBe('2026-03-20');
      expect(page.body.disciplines).toEqual(pages[0].body.disciplines);
    }
    expect(pages[0].body.disciplines.map((d) => [d.open, d.late])).toEqual([[4, 2], [3, 1], [2, 2]]);
  });

  it('charts each discipline per week of submission (on time, late, open) and filters the chart, the list, its count and the CSV', async () => {
    // A June of 2025, apart from the other tests' requests: week of 2 June, of 9 June, of 16 June.
    const [onTime, releasedLate, openLate, rejected, openChem, openMolBio] = (
      await insertRequests(app.db, [
        { clientUserId, tests: ['eColi'], status: 'RELEASED', submissionDate: '2025-06-02T08:00:00.000Z' },
        { clientUserId, tests: ['eColi'], status: 'RELEASED', submissionDate: '2025-06-04T08:00:00.000Z' },
        { clientUserId, tests: ['eColi'], status: 'FOR_TESTING', submissionDate: '2025-06-10T08:00:00.000Z' },
        { clientUserId, tests: ['eColi'], status: 'REJECTED', submissionDate: '2025-06-11T08:00:00.000Z' },
        { clientUserId, tests: ['betaLactams'], status: 'FOR_TESTING', submissionDate: '2025-06-12T08:00:00.000Z' },
        { clientUserId, tests: ['dog'], status: 'FOR_RELEASE', submissionDate: '2025-06-20T08:00:00.000Z' },
      ])
    ).map((r) => r.requestId);
    await app.db('requests').where('id', onTime).update({ released_at: '2025-06-10T16:00:00.000Z' });
    await app.db('requests').where('id', releasedLate).update({ released_at: '2025-06-11T08:00:00.000Z' });
    await setDueDates([[onTime, '2025-06-10'], [releasedLate, '2025-06-10'], [openLate, '2025-06-17'], [rejected, '2025-06-18'], [openChem, '2026-04-01'], [openMolBio, null]]);

    const june = 'since=2025-06-02&until=2025-06-22';
    const chart = await staff.get<TurnaroundWeeks>(`/requests/turnaround/weeks?${june}`);
    expect(chart.status).toBe(200);
    expect(chart.body.window).toEqual({ since: '2025-06-02', until: '2025-06-22' });
    const week = (w: string, onTimeCount: number, late: number, open: number) => ({ week: w, onTime: onTimeCount, late, open });
    expect(chart.body.weeks).toEqual([
      { family: 'microbio', label: 'Microbiological', weeks: [week('2025-06-02', 1, 1, 0), week('2025-06-09', 0, 1, 0), week('2025-06-16', 0, 0, 0)] },
      { family: 'chem', label: 'Chemical', weeks: [week('2025-06-02', 0, 0, 0), week('2025-06-09', 0, 0, 1), week('2025-06-16', 0, 0, 0)] },
      { family: 'molBio', label: 'Molecular Biology', weeks: [week('2025-06-02', 0, 0, 0), week('2025-06-09', 0, 0, 0), week('2025-06-16', 0, 0, 1)] },
    ]);
    const families = async (query: string) => (await staff.get<TurnaroundWeeks>(`/requests/turnaround/weeks?${june}&${query}`)).body.weeks.map((w) => w.family);
    expect(await families('discipline=microbio')).toEqual(['microbio']);
    expect(await families('discipline=chem')).toEqual(['chem']);

    // The list holds the open requests submitted in those days, late first; the count is of them.
    const res = await staff.get<Turnaround>(`/requests/turnaround?${june}`);
    expect(res.body.requests.map((r) => r.requestId)).toEqual([openLate, openChem, openMolBio]);
    expect(res.headers.get('X-Total-Count')).toBe('3');
    // The load per discipline stays the whole laboratory's.
    expect(res.body.disciplines).toEqual((await staff.get<Turnaround>('/requests/turnaround')).body.disciplines);

    const listed = async (query: string) => {
      const page = await staff.get<Turnaround>(`/requests/turnaround?${june}&${query}`);
      expect(page.status, query).toBe(200);
      return { ids: page.body.requests.map((r) => r.requestId), total: page.headers.get('X-Total-Count') };
    };
    expect(await listed('discipline=microbio')).toEqual({ ids: [openLate], total: '1' });
    expect(await listed('late=true')).toEqual({ ids: [openLate], total: '1' });
    expect(await listed('late=false')).toEqual({ ids: [openLate, openChem, openMolBio], total: '3' });
    expect(await listed('discipline=chem&late=true')).toEqual({ ids: [], total: '0' });
    // Without days the count comes from the loads per discipline: it is the list's length all the same.
    for (const query of ['discipline=microbio', 'late=true', 'discipline=molbio&late=true', 'late=false']) {
      let length = 0;
      let total: string | null = null;
      for (let path: string | undefined = `/requests/turnaround?limit=200&${query}`; path; ) {
        const page: HttpResponse<Turnaround> = await staff.get<Turnaround>(path);
        length += page.body.requests.length;
        total = page.headers.get('X-Total-Count');
        path = nextLink(page);
      }
      expect(total, query).toBe(String(length));
    }
    // Paged, the next link keeps the filter.
    const first = await staff.get<Turnaround>(`/requests/turnaround?${june}&limit=2`);
    expect(first.body.requests.map((r) => r.requestId)).toEqual([openLate, openChem]);
    const second = await staff.get<Turnaround>(nextLink(first)!);
    expect(second.body.requests.map((r) => r.requestId)).toEqual([openMolBio]);
    expect(nextLink(second)).toBeUndefined();

    const csv = await staff.get(`/requests/turnaround?${june}&discipline=molbio&format=csv`);
    expect(csv.status).toBe(200);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^\d{4}-\d{4},FOR_RELEASE,[^,]+,Molecular Biology,2025-06-20T08:00:00.000Z,,273,0$/);

    // Without days, the chart is the last 12 weeks up to today (Friday 20 March 2026: from Monday 29 December).
    const recent = await staff.get<TurnaroundWeeks>('/requests/turnaround/weeks?discipline=chem');
    expect(recent.body.window).toEqual({ since: '2025-12-29', until: '2026-03-20' });
    expect(recent.body.weeks[0].weeks.map((w) => w.week)).toHaveLength(12);
  });

  it('refuses a bad filter with the reason; the chart at most 366 days, the list any range', async () => {
    for (const [path, query, reason] of [
      ['', 'since=2025-06-10&until=2025-06-02', /^until: must not be before since$/],
      ['/weeks', 'since=2025-06-10&until=2025-06-02', /^until: must not be before since$/],
      ['/weeks', 'since=2024-01-01&until=2025-06-02', /^since: the days charted span at most 366 days/],
      ['/weeks', 'since=2024-01-01', /^since: the days charted span at most 366 days/],
      ['', 'discipline=bio', /^discipline: must be one of chem, microbio, molbio$/],
      ['/weeks', 'discipline=bio', /^discipline: must be one of chem, microbio, molbio$/],
      ['', 'late=yes', /^late: must be true or false$/],
      ['/weeks', 'late=true', /late/],
      ['', 'since=2025-02-30', /^since: is not a real date$/],
    ] as const) {
      const res = await staff.get(`/requests/turnaround${path}?${query}`);
      expect(res.status, `${path}?${query}`).toBe(400);
      expect(res.body.message, `${path}?${query}`).toMatch(reason);
    }
    expect((await staff.get('/requests/turnaround?since=2024-01-01')).status).toBe(200);
  });

  it('refuses a bad page size or cursor with the reason', async () => {
    const turnaroundCursor = cursor(['urgency', '2026-03-11', '2026-03-02T08:00:00.000Z', 5]);
    expect((await staff.get(`/requests/turnaround?limit=1&after=${turnaroundCursor}`)).status).toBe(200);
    for (const [query, reason] of [
      ['limit=0', /^limit: must be at least 1$/],
      ['limit=201', /^limit: must be at most 200$/],
      ['limit=ten', /^limit: must be a number$/],
      ['after=nonsense', /^after: is not a cursor of this list$/],
      // A work queue's cursor, and one of another order.
      [`after=${cursor(['urgent', '2026-03-11', 5])}`, /^after: is not a cursor of this list$/],
      [`after=${cursor(['oldest', '2026-03-11', '2026-03-02T08:00:00.000Z', 5])}`, /^after: is not a cursor of this list$/],
      [`after=${cursor(['urgency', '2026-03-11', '2026-03-02T08:00:00.000Z', 0])}`, /^after: is not a cursor of this list$/],
      ['sort=oldest', /sort/],
    ] as const) {
      const res = await staff.get(`/requests/turnaround?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toMatch(reason);
    }
  });

  it('is for the desk only, also as CSV', async () => {
    expect((await app.anonymous().get('/requests/turnaround')).status).toBe(401);
    expect((await app.anonymous().get('/requests/turnaround/weeks')).status).toBe(401);
    for (const role of ['client', 'chemtester', 'microbiotester', 'molbiotester'] as const) {
      const { http } = await app.signedIn(role);
      expect((await http.get('/requests/turnaround')).status).toBe(403);
      expect((await http.get('/requests/turnaround?format=csv')).status).toBe(403);
      expect((await http.get('/requests/turnaround/weeks')).status).toBe(403);
    }
  });

  it('downloads every open request in urgency order as CSV, streamed in chunks, formulas made inert', async () => {
    const formula = (await app.createUser('client', { companyName: '=HYPERLINK("x")' })).id;
    await insertRequests(app.db, Array.from({ length: QUEUE_EXPORT_CHUNK }, (_, i) => ({ clientUserId: i === 0 ? formula : clientUserId, tests: ['eColi'], status: 'FOR_TESTING' as const })));
    const walked: string[] = [];
    for (let path: string | undefined = '/requests/turnaround?limit=200'; path; ) {
      const res: HttpResponse<Turnaround> = await staff.get<Turnaround>(path);
      walked.push(...res.body.requests.map((r) => r.controlNumber ?? ''));
      path = nextLink(res);
    }
    const res = await staff.get('/requests/turnaround?format=csv&limit=3');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="turnaround-2026-03-20.csv"');
    const lines = res.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Control number,Status,Company,Disciplines,Submitted,Due date,Age (days),Days late');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(walked);
    expect(lines).toHaveLength(1 + 11 + QUEUE_EXPORT_CHUNK);
    // After the chart test's request late since June 2025.
    expect(lines[2]).toMatch(/^\d{4}-\d{4},FOR_TESTING,[^,]+,Microbiological,2026-02-20T08:00:00.000Z,2026-03-01,28,19$/);
    expect(res.text).toContain(`,FOR_TESTING,"'=HYPERLINK(""x"")",Microbiological,`);
  });
});
