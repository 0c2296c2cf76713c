// The work queues read progress rows the writes keep (server/db/requestProgress.ts). After random
// sequences of every write that changes analyses or a request's status (submit, approve, saves that
// complete, half-fill or empty results, CSV import, reject, signed release, amendment), the rows must
// equal what a plain GROUP BY over the analyses says, and the for-testing queues must list the
// requests the former correlated EXISTS query listed.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../../fixtures/requests.js';
import { migrationSource } from '../../../server/db/migrations/index.js';
import { ANALYTES, analytesOfGroup, DISCIPLINE_GROUPS, GROUPS, type Group } from '../../../server/domain/catalog.js';
import type { Actor } from '../../../server/domain/policies.js';
import { RESULTS_CSV_HEADER } from '../../../server/domain/resultsCsv.js';
import { DISCIPLINES, testerRoleOf, type Discipline } from '../../../server/domain/roles.js';
import { AppError } from '../../../server/errors.js';
import { amendResults } from '../../../server/services/certificates/amend.js';
import { signedRelease } from '../../../server/services/certificates/release.js';
import { listQueue } from '../../../server/services/requests/queues.js';
import { approveRequest, rejectRequest } from '../../../server/services/requests/transitions.js';
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
        await insertRequests(app.db, [{ clientUserId: clientId, tests: op.tests, samples: Array.from({ length: op.samples }, () => 'Beef loin'), status: 'PENDING_REVIEW', submissionDate: app.clock.now().toISOString() }]);
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

  /** The reference: per request past review and scope, the numbers of a GROUP BY over its analyses. */
  async function groupByProgress() {
    const rows: Record<string, unknown>[] = [];
    for (const [scope, groups] of SCOPES) {
      const query = app.db('requests as r')
        .whereNot('r.status', 'PENDING_REVIEW')
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

  /** Statuses the progress rows had at some check: the sequences must reach every one the queues read. */
  const seen = new Set<unknown>();

  async function expectExact(): Promise<void> {
    const maintained = normalized(await app.db('request_progress').select('*'));
    expect(maintained).toEqual(await groupByProgress());
    for (const row of maintained) seen.add(row.status);
    for (const d of DISCIPLINES) {
      for (const state of ['outstanding', 'finished'] as const) {
        const page = await listQueue(app.db, testers[d], 'for-testing', { limit: 200, sort: 'oldest', state });
        expect(page.rows.map((r) => r.requestId), `${d} ${state}`).toEqual(await formerForTesting(DISCIPLINE_GROUPS[d], state));
      }
    }
    const staffPage = await listQueue(app.db, staff, 'for-testing', { limit: 200, sort: 'oldest', state: 'finished' });
    expect(staffPage.rows.map((r) => r.requestId)).toEqual(await formerForTesting(GROUPS, 'finished'));
  }

  it('equal the GROUP BY after random submissions, approvals, saves, imports, rejections, releases and amendments', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 4, maxLength: 14 }), async (ops) => {
        for (const op of ops) await apply(op);
        await expectExact();
      }),
      { numRuns: 12, seed: 22 },
    );
    expect(seen).toEqual(new Set(['FOR_TESTING', 'FOR_RELEASE', 'RELEASED', 'REJECTED']));
  });

  it('are rebuilt by the migration from the analyses already there', async () => {
    const before = normalized(await app.db('request_progress').select('*'));
    expect(before.length).toBeGreaterThan(0);
    await app.db.migrate.down({ migrationSource, name: '013_request_progress' });
    expect(await app.db.schema.hasTable('request_progress')).toBe(false);
    await app.db.migrate.up({ migrationSource, name: '013_request_progress' });
    expect(normalized(await app.db('request_progress').select('*'))).toEqual(before);
  });
});
