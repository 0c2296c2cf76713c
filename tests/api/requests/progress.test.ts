// The work queues and the turnaround dashboard read progress rows the writes keep
// (server/db/requestProgress.ts). After random sequences of every write that changes analyses or a
// request's status (submit, approve, saves that complete, half-fill or empty results, CSV import,
// reject, signed release, amendment), the rows must equal what a plain GROUP BY over the analyses
// says (their worst decision against a specification included), the for-testing queues must list the requests the former correlated EXISTS query listed, and
// the dashboard must count and list the open requests as plain SQL over the requests and their tests,
// and the counts the triggers keep per scope and status (the lists' lengths) must equal counting the rows.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationSource } from '../../../server/db/migrations/index.js';
import { PROGRESS_COLUMNS_BEFORE_022 } from '../../../server/db/requestProgress.js';
import { ANALYTES, analytesOfFamily, analytesOfGroup, DISCIPLINE_GROUPS, FAMILIES, FAMILY_LABELS, GROUPS, type Group } from '../../../server/domain/catalog.js';
import type { Actor } from '../../../server/domain/policies.js';
import { RESULTS_CSV_HEADER } from '../../../server/domain/resultsCsv.js';
import { DISCIPLINES, testerRoleOf, type Discipline } from '../../../server/domain/roles.js';
import { daysLate, OPEN_REQUEST_STATUSES } from '../../../server/domain/turnaround.js';
import { AppError } from '../../../server/errors.js';
import { amendResults } from '../../../server/services/certificates/amend.js';
import { signedRelease } from '../../../server/services/certificates/release.js';
import { listQueue } from '../../../server/services/requests/queues.js';
import { submitRequest } from '../../../server/services/requests/submit.js';
import { approveRequest, rejectRequest } from '../../../server/services/requests/transitions.js';
import { turnaround } from '../../../server/services/requests/turnaround.js';
import { importResults } from '../../../server/services/results/import.js';
import { saveRequestResults } from '../../../server/services/results/saveRequest.js';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

const SCOPES: Array<[string, readonly Group[] | undefined]> = [
  ['all', undefined], ['chem', DISCIPLINE_GROUPS.chem], ['microbio', ['microbio']], ['molbio', ['molBio']], ['chemMicrobial', ['chemMicrobial']], ['chemElisa', ['chemElisa']],
];
const COMPLETE = "a.value is not null and trim(a.value) <> '' and a.remark in ('positive', 'negative')";
/** COMPLETE negated with SQL's NULLs in mind (a missing remark is incomplete, not unknown). */
const INCOMPLETE = "(a.value is null or trim(a.value) = '' or a.remark is null or a.remark not in ('positive', 'negative'))";
const codesOf = (groups: readonly Group[]) => groups.flatMap((g) => analytesOfGroup(g).map((a) => a.code));

type Op =
  | { kind: 'submit'; tests: string[]; samples: number }
  | { kind: 'approve' | 'reject' | 'release'; pick: number }
  | { kind: 'save' | 'import'; pick: number; fill: Array<'complete' | 'half' | 'empty' | 'positive'> }
  | { kind: 'amend'; pick: number; positive: boolean };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('submit' as const), tests: fc.uniqueArray(fc.constantFrom(...ANALYTES.map((a) => a.code)), { minLength: 1, maxLength: 4 }), samples: fc.integer({ min: 1, max: 2 }) }),
  fc.record({ kind: fc.constantFrom('approve' as const, 'reject' as const, 'release' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constantFrom('save' as const, 'import' as const), pick: fc.nat(), fill: fc.array(fc.constantFrom('complete' as const, 'half' as const, 'empty' as const, 'positive' as const), { minLength: 1, maxLength: 8 }) }),
  fc.record({ kind: fc.constant('amend' as const), pick: fc.nat(), positive: fc.boolean() }),
);

describe(`request progress rows against the GROUP BY (${databaseKind()})`, () => {
  let app: TestApp;
  let staff: Actor;
  let clientId: number;
  const testers = {} as Record<Discipline, Actor & { email: string }>;
  const deps = () => ({ db: app.db, clock: app.clock, labName: 'Test laboratory' });

  beforeAll(async () => {
    app = await startTestApp();
    const s = await app.createUser('staff');
    staff = { id: s.id, role: s.role };
    clientId = (await app.createUser('client')).id;
    for (const d of DISCIPLINES) {
      const t = await app.createUser(testerRoleOf(d));
      testers[d] = { id: t.id, role: t.role, email: t.email };
    }
  });
  afterAll(() => app?.close());

  /** The n-th (wrapping) request in one of `statuses`, or undefined. */
  async function requestIn(statuses: string[], n: number): Promise<number | undefined> {
    const ids: number[] = (await app.db('requests').whereIn('status', statuses).orderBy('id').pluck('id')).map(Number);
    return ids.length ? ids[n % ids.length] : undefined;
  }

  /** A request's analyses of one discipline it has, with the value each `fill` asks for (in turn). */
  async function entriesFor(requestId: number, fill: readonly string[], n: number) {
    const analyses: Array<{ sample_id: number; position: number; test_code: string; result_group: Group }> = await app.db('analyses as a')
      .join('samples as s', 's.id', 'a.sample_id')
      .where('a.request_id', requestId)
      .orderBy(['a.sample_id', 'a.test_code'])
      .select('a.sample_id', 's.position', 'a.test_code', 'a.result_group');
    if (analyses.length === 0) return undefined;
    const discipline = DISCIPLINES.find((d) => DISCIPLINE_GROUPS[d].includes(analyses[n % analyses.length].result_group))!;
    const mine = analyses.filter((a) => DISCIPLINE_GROUPS[discipline].includes(a.result_group));
    const entries = mine.map((a, i) => {
      const f = fill[i % fill.length];
      return {
        sampleId: Number(a.sample_id), position: Number(a.position), testCode: a.test_code,
        value: f === 'empty' ? '' : 'seen',
        remark: f === 'half' || f === 'empty' ? ('' as const) : f === 'positive' ? ('positive' as const) : ('negative' as const),
        analysisDate: null,
      };
    });
    return { discipline, entries };
  }

  async function apply(op: Op): Promise<void> {
    try {
      if (op.kind === 'submit') {
        await submitRequest(deps(), clientId, {
          representativeName: 'Rep', contactNumber: '639171234567', clientClassification: 'Importer', ltoNumber: null, lotBatchNo: null, sampleSource: null,
          productionDate: null, expiryDate: null, samplingDate: null, samplerName: null, testingPurpose: 'Local_Trade', otherTestingPurpose: null,
          sampleCategory: 'Walk-in', gramPositiveAst: null, gramNegativeAst: null,
          samples: Array.from({ length: op.samples }, () => 'Beef loin'), tests: op.tests,
        });
      } else if (op.kind === 'approve' || op.kind === 'reject') {
        const id = await requestIn(op.kind === 'approve' ? ['PENDING_REVIEW'] : ['PENDING_REVIEW', 'FOR_RELEASE'], op.pick);
        if (id === undefined) return;
        if (op.kind === 'approve') await approveRequest(deps(), staff, id);
        else await rejectRequest(deps(), staff, id, {}, 'Thawed.');
      } else if (op.kind === 'release') {
        const id = await requestIn(['FOR_RELEASE'], op.pick);
        if (id !== undefined) await signedRelease(deps(), staff, id, TEST_PASSWORD);
      } else if (op.kind === 'save' || op.kind === 'import') {
        const id = await requestIn(['FOR_TESTING', 'FOR_RELEASE'], op.pick);
        const planned = id === undefined ? undefined : await entriesFor(id, op.fill, op.pick);
        if (!planned) return;
        const tester = testers[planned.discipline];
        if (op.kind === 'save') {
          await saveRequestResults(deps(), tester, { requestId: id!, entries: planned.entries });
        } else {
          const { control_number } = await app.db('requests').where('id', id).first('control_number');
          // A file cannot empty a result: its empty rows are left out.
          const lines = planned.entries.filter((e) => e.value !== '').map((e) => [control_number, e.position, e.testCode, e.value, e.remark, ''].join(','));
          if (lines.length === 0) return;
          const outcome = await importResults(deps(), tester, { csv: Buffer.from([RESULTS_CSV_HEADER, ...lines].join('\n')) });
          expect(outcome.imported, JSON.stringify(outcome)).toBe(true);
        }
      } else if (op.kind === 'amend') {
        const id = await requestIn(['RELEASED'], op.pick);
        const planned = id === undefined ? undefined : await entriesFor(id, ['complete'], op.pick);
        if (!planned) return;
        const [first] = planned.entries;
        const remark = op.positive ? ('positive' as const) : ('negative' as const);
        const result = { sampleId: first.sampleId, testCode: first.testCode, value: `amended ${remark}`, remark, analysisDate: null };
        await amendResults(deps(), staff, id!, { reason: 'Typing error', password: TEST_PASSWORD, results: [result] });
      }
    } catch (err) {
      // A refused step (409 after a concurrent-looking pick, 400 nothing to amend) changes nothing.
      if (!(err instanceof AppError)) throw err;
    }
    app.clock.advanceMinutes(1);
  }

  /** The reference: per request and scope, the numbers of a GROUP BY over its analyses. */
  async function groupByProgress() {
    const rows: Record<string, unknown>[] = [];
    for (const [scope, groups] of SCOPES) {
      const query = app.db('requests as r')
        .leftJoin('analyses as a', (on) => {
          on.on('a.request_id', 'r.id');
          if (groups) on.onIn('a.result_group', [...groups]);
        })
        .groupBy('r.id', 'r.status', 'r.submission_date', 'r.due_date')
        .select(
          'r.id as request_id', 'r.status', 'r.submission_date', app.db.raw("coalesce(r.due_date, '9999-12-31') as due_key"),
          app.db.raw('count(a.id) as total'),
          app.db.raw(`count(case when ${COMPLETE} then 1 end) as complete`),
          app.db.raw("count(case when a.remark = 'positive' then 1 end) as positives"),
          app.db.raw('max(a.entered_at) as last_entered_at'),
          // The worst decision against a specification: conforms < inconclusive < does not conform.
          app.db.raw("max(case a.decision_outcome when 'conforms' then 0 when 'inconclusive' then 1 when 'does_not_conform' then 2 end) as conformity_rank"),
          app.db.raw(`case when count(a.id) > 0 and count(a.id) = count(case when ${COMPLETE} then 1 end) then 1 else 0 end as finished`),
        );
      if (groups) query.whereExists(app.db('request_tests as t').select(app.db.raw('1')).whereRaw('t.request_id = r.id').whereIn('t.test_code', codesOf(groups)));
      for (const row of await query) rows.push({ ...row, scope });
    }
    return normalized(rows);
  }

  const normalized = (rows: Record<string, unknown>[]) =>
    rows
      .map((r) => ({
        request_id: Number(r.request_id), scope: r.scope, status: r.status, finished: Number(r.finished), submission_date: r.submission_date, due_key: r.due_key,
        total: Number(r.total), complete: Number(r.complete), positives: Number(r.positives), last_entered_at: r.last_entered_at ?? null,
        conformity_rank: r.conformity_rank == null ? null : Number(r.conformity_rank),
      }))
      .sort((a, b) => a.request_id - b.request_id || String(a.scope).localeCompare(String(b.scope)));

  /** The for-testing queue's ids as the query before the progress rows chose them (correlated EXISTS over analyses). */
  async function formerForTesting(groups: readonly Group[], state: 'outstanding' | 'finished'): Promise<number[]> {
    const ofGroups = () => app.db('analyses as a').select(app.db.raw('1')).whereRaw('a.request_id = r.id').whereIn('a.result_group', groups);
    const finished = (w: typeof query) => w.whereExists(ofGroups()).whereNotExists(ofGroups().whereRaw(INCOMPLETE));
    const query = app.db('requests as r')
      .whereIn('r.status', state === 'outstanding' ? ['FOR_TESTING'] : ['FOR_TESTING', 'FOR_RELEASE'])
      .whereExists(app.db('request_tests as g').select(app.db.raw('1')).whereRaw('g.request_id = r.id').whereIn('g.test_code', codesOf(groups)))
      .orderBy(['r.submission_date', 'r.id'])
      .select('r.id');
    if (state === 'outstanding') query.whereNot(finished);
    else query.where(finished);
    return (await query).map((r: { id: number }) => Number(r.id));
  }

  /**
   * The dashboard's reference, on a day some requests are late: per family, its open requests, the
   * late ones and the oldest submission; and the open requests late first (the most days late first),
   * then by due date, then submission and id.
   */
  async function plainTurnaround(today: string) {
    const open = app.db('requests as r').whereIn('r.status', OPEN_REQUEST_STATUSES);
    const disciplines = [];
    for (const family of FAMILIES) {
      const [row] = await open
        .clone()
        .whereExists(app.db('request_tests as t').select(app.db.raw('1')).whereRaw('t.request_id = r.id').whereIn('t.test_code', analytesOfFamily(family).map((a) => a.code)))
        .select(app.db.raw('count(*) as n'), app.db.raw('count(case when r.due_date < ? then 1 end) as late', [today]), app.db.raw('min(r.submission_date) as oldest'));
      disciplines.push({ family, label: FAMILY_LABELS[family], open: Number(row.n), late: Number(row.late), oldestSubmission: row.oldest ?? null });
    }
    const rows: Array<{ id: number; due_date: string | null; submission_date: string }> = await open.clone().select('r.id', 'r.due_date', 'r.submission_date');
    const urgency = rows
      .map((r) => ({ id: Number(r.id), due: r.due_date, submitted: r.submission_date, late: daysLate(r.due_date, today) }))
      .sort((a, b) => b.late - a.late || (a.due ?? '~').localeCompare(b.due ?? '~') || a.submitted.localeCompare(b.submitted) || a.id - b.id);
    return { disciplines, total: rows.length, ids: urgency.map((r) => r.id) };
  }

  /** The dashboard's pages of `limit`, walked to the end as the Link rel="next" cursors lead. */
  async function walkedTurnaround(today: string, limit: number) {
    const first = await turnaround(app.db, staff, today, { limit });
    const ids = first.turnaround.requests.map((r) => r.requestId);
    for (let next = first.next; next; ) {
      const page = await turnaround(app.db, staff, today, { limit, after: next });
      ids.push(...page.turnaround.requests.map((r) => r.requestId));
      next = page.next;
    }
    return { disciplines: first.turnaround.disciplines, total: first.total, ids };
  }

  /** The counts the lists' X-Total-Count reads (db/progressCounts.ts), per scope and status. */
  async function maintainedCounts() {
    const rows = await app.db('progress_counts').groupBy('scope', 'status').havingRaw('sum(n) <> 0').select('scope', 'status').sum({ n: 'n' });
    return countsOf(rows);
  }

  /** The same counted: the progress rows per scope and status, and the requests per status for 'all'. */
  async function countedRows() {
    const rows: Array<Record<string, unknown>> = await app.db('request_progress').groupBy('scope', 'status').select('scope', 'status').count({ n: '*' });
    const requests: Array<Record<string, unknown>> = await app.db('requests').groupBy('status').select('status').count({ n: '*' });
    expect(countsOf(rows.filter((r) => r.scope === 'all'))).toEqual(countsOf(requests.map((r) => ({ ...r, scope: 'all' }))));
    return countsOf(rows);
  }

  const countsOf = (rows: Array<Record<string, unknown>>) =>
    rows.map((r) => ({ scope: String(r.scope), status: String(r.status), n: Number(r.n) })).sort((a, b) => `${a.scope} ${a.status}`.localeCompare(`${b.scope} ${b.status}`));

  /** Statuses the progress rows had at some check: the sequences must reach every one the queues read. */
  const seen = new Set<unknown>();

  async function expectExact(): Promise<void> {
    const maintained = normalized(await app.db('request_progress').select('*'));
    expect(maintained).toEqual(await groupByProgress());
    expect(await maintainedCounts()).toEqual(await countedRows());
    for (const row of maintained) seen.add(row.status);
    for (const d of DISCIPLINES) {
      for (const state of ['outstanding', 'finished'] as const) {
        const page = await listQueue(app.db, testers[d], 'for-testing', { limit: 200, sort: 'oldest', state });
        expect(page.rows.map((r) => r.requestId), `${d} ${state}`).toEqual(await formerForTesting(DISCIPLINE_GROUPS[d], state));
      }
    }
    const staffPage = await listQueue(app.db, staff, 'for-testing', { limit: 200, sort: 'oldest', state: 'finished' });
    expect(staffPage.rows.map((r) => r.requestId)).toEqual(await formerForTesting(GROUPS, 'finished'));
    // Due dates are 7 to 16 days after submission: 10 days on, some requests are late and some not.
    const today = new Date(app.clock.now().getTime() + 10 * 86_400_000).toISOString().slice(0, 10);
    expect(await walkedTurnaround(today, 3)).toEqual(await plainTurnaround(today));
  }

  it('equal the GROUP BY after random submissions, approvals, saves, imports, rejections, releases and amendments', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 4, maxLength: 14 }), async (ops) => {
        for (const op of ops) await apply(op);
        await expectExact();
      }),
      { numRuns: 12, seed: 22 },
    );
    expect(seen).toEqual(new Set(['PENDING_REVIEW', 'FOR_TESTING', 'FOR_RELEASE', 'RELEASED', 'REJECTED']));
  });

  it('are rebuilt by the migrations from the analyses already there', async () => {
    const before = normalized(await app.db('request_progress').select('*'));
    expect(before.some((r) => r.status === 'PENDING_REVIEW')).toBe(true);
    expect(before.some((r) => r.conformity_rank !== null)).toBe(true);
    const counts = await maintainedCounts();
    // 024 counts the rows; it goes first, as it came last.
    await app.db.migrate.down({ migrationSource, name: '024_progress_counts' });
    expect(await app.db.schema.hasTable('progress_counts')).toBe(false);
    // 022 adds the worst decision; 013 and 015 write the rows as their table was.
    await app.db.migrate.down({ migrationSource, name: '022_progress_conformity' });
    // Named columns: a `select *` prepared on PostgreSQL before the table changed cannot run after.
    const earlierColumns = (rows: ReturnType<typeof normalized>) => rows.map(({ conformity_rank: _, ...row }) => row);
    // 015 adds the rows of requests in review.
    await app.db.migrate.down({ migrationSource, name: '015_turnaround_paging' });
    expect(earlierColumns(normalized(await app.db('request_progress').select(Object.keys(PROGRESS_COLUMNS_BEFORE_022))))).toEqual(earlierColumns(before.filter((r) => r.status !== 'PENDING_REVIEW')));
    await app.db.migrate.up({ migrationSource, name: '015_turnaround_paging' });
    expect(earlierColumns(normalized(await app.db('request_progress').select(Object.keys(PROGRESS_COLUMNS_BEFORE_022))))).toEqual(earlierColumns(before));
    await app.db.migrate.down({ migrationSource, name: '013_request_progress' });
    expect(await app.db.schema.hasTable('request_progress')).toBe(false);
    await app.db.migrate.up({ migrationSource, name: '013_request_progress' });
    await app.db.migrate.up({ migrationSource, name: '022_progress_conformity' });
    expect(normalized(await app.db('request_progress').select('*'))).toEqual(before);
    await app.db.migrate.up({ migrationSource, name: '024_progress_counts' });
    expect(await maintainedCounts()).toEqual(counts);
    expect(counts).toEqual(await countedRows());
  });
});
