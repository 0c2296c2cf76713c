import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../../fixtures/requests.js';
import { buildSubmitPayload, type SubmitRequestForm } from '../../../server/domain/requestPayload.js';
import type { User } from '../../../server/services/users.js';
import { callStatements } from '../../helpers/callStatements.js';
import type { HttpClient } from '../../helpers/httpClient.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

const form = (overrides: Partial<SubmitRequestForm> = {}): SubmitRequestForm => ({
  representativeName: 'acme',
  contactNumber: '639171234567',
  emailAddress: 'buyer@acme.test',
  companyName: 'Acme Meats',
  clientClassification: 'Importer',
  ltoNumber: 'lto-1',
  testingPurpose: 'Local_Trade',
  otherTestingPurpose: '',
  sampleCategory: 'Walk-in',
  lotBatchNo: 'LOT-9',
  sampleSource: 'Cold storage B',
  productionDate: '2026-03-01',
  expiryDate: '2026-06-01',
  samplingDate: '2026-03-15',
  samplerName: 'R. Cruz',
  samples: ['Beef loin', 'Pork belly'],
  tests: ['standardPlateCount', 'betaLactams', 'dog'],
  gramPositiveAst: '',
  gramNegativeAst: '',
  ...overrides,
});

const payload = (overrides: Partial<SubmitRequestForm> = {}, extra: Record<string, unknown> = {}) => ({
  ...buildSubmitPayload(form(overrides), new Date('2026-03-16T09:00:00.000Z')),
  ...extra,
});

describe(`client requests (${databaseKind()})`, () => {
  let app: TestApp;
  let alice: { user: User; http: HttpClient };
  let bob: { user: User; http: HttpClient };
  let staff: { user: User; http: HttpClient };

  beforeAll(async () => {
    app = await startTestApp();
    alice = await app.signedIn('client');
    bob = await app.signedIn('client');
    staff = await app.signedIn('staff');
  });
  afterAll(() => app?.close());

  const submit = (who: { user: User; http: HttpClient }, body: unknown) =>
    who.http.post(`/requests/submitrequest/${who.user.id}`, body);

  describe('POST requests/submitrequest/{userId}', () => {
    it('stores every one of many submissions sent at once, each with its own samples, tests and audit entry', async () => {
      // Concurrent submissions share commits (inBatchedTransaction): each answer must still be its own stored request.
      const carol = await app.signedIn('client');
      const dave = await app.signedIn('client');
      const sent = Array.from({ length: 40 }, (_, i) => ({ who: i % 2 ? carol : dave, samples: [`Batch ${i} loin`, `Batch ${i} belly`] }));
      const answers = await Promise.all(sent.map(({ who, samples }) => submit(who, payload({ samples }))));
      expect(answers.map((a) => a.status)).toEqual(sent.map(() => 201));
      const ids = answers.map((a) => a.body.requestId as number);
      expect(new Set(ids).size).toBe(40);
      const stored = await app.db('requests').whereIn('id', ids).select('id', 'client_user_id');
      expect(stored).toHaveLength(40);
      for (const [i, answer] of answers.entries()) {
        expect(stored.find((r) => Number(r.id) === answer.body.requestId)?.client_user_id).toBe(sent[i].who.user.id);
        const samples = await app.db('samples').where('request_id', answer.body.requestId).orderBy('position').pluck('sample_type_description');
        expect(samples).toEqual(sent[i].samples);
        expect(answer.body.samples.map((s: { sampleTypeDescription: string }) => s.sampleTypeDescription)).toEqual(sent[i].samples);
      }
      expect(Number((await app.db('request_tests').whereIn('request_id', ids).count({ n: '*' }).first())?.n)).toBe(40 * 3);
      const audited = await app.db('audit_log').where('action', 'request.submit').whereIn('request_id', ids).pluck('request_id');
      expect(audited.map(Number).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    });

    it('stores a pending request with samples, tests, audit entry, and its own fee and due date', async () => {
      // The browser's figures are ignored: the server prices from the catalog.
      const res = await submit(alice, payload({}, { estimatedFee: 1, dueDate: '1999-01-01', requestStatus: 'RELEASED' }));
      expect(res.status).toBe(201);
      // 2 samples x (150 + 375 + 1500); the longest turnaround is 7 working days from Monday 2026-03-16.
      expect(res.body).toMatchObject({
        requestStatus: 'PENDING_REVIEW',
        controlNumber: null,
        clientUserId: alice.user.id,
        estimatedFee: 4050,
        dueDate: '2026-03-25',
        submissionDate: '2026-03-16T09:00:00.000Z',
        ltoNumber: 'LTO-1',
        testingPurpose: 'Local_Trade',
        otherTestingPurpose: null,
        productionDate: '2026-03-01',
        tests: ['standardPlateCount', 'betaLactams', 'dog'],
        standardPlateCount: true,
        betaLactams: true,
        dog: true,
        cat: false,
        microbio: true,
        chem: true,
        molBio: true,
        elisa: false,
      });
      expect(res.body.samples.map((s: any) => [s.position, s.sampleTypeDescription])).toEqual([
        [1, 'Beef loin'],
        [2, 'Pork belly'],
      ]);

      const requestId = res.body.requestId;
      // The answer is built from what was inserted; it must be what reading the request back gives.
      const { rejectionReason, conformity, ...readBack } = (await alice.http.get(`/requests/detail/${requestId}`)).body;
      expect(rejectionReason).toBeNull();
      // Issue 26: nothing judged yet.
      expect(conformity).toBeNull();
      expect(res.body).toEqual(readBack);
      const stored = await app.db('requests').where('id', requestId).first('estimated_fee', 'due_date', 'status');
      expect({ ...stored, estimated_fee: Number(stored.estimated_fee) }).toEqual({ estimated_fee: 4050, due_date: '2026-03-25', status: 'PENDING_REVIEW' });
      const audit = await app.db('audit_log').where({ request_id: requestId, action: 'request.submit' }).select('actor_user_id');
      expect(audit).toEqual([{ actor_user_id: alice.user.id }]);
    });

    // SQLite answers in this process, where a statement costs no round trip.
    if (databaseKind() === 'postgres') {
      it('writes a submission in two statements: the profile read drawing the id, then the request and all its rows at once', async () => {
        const submission = await callStatements(app.db, async () => expect((await submit(alice, payload({ lotBatchNo: 'LOT-TWO-STATEMENTS' }))).status).toBe(201));
        expect(submission).toHaveLength(2);
        expect(submission[0]).toMatch(/nextval\(.* from "users" as "u" inner join "clients"/);
        expect(submission[1]).toMatch(/^with .*insert into "requests".*insert into "samples"/);
        const [stored] = await app.db('requests').where('lot_batch_no', 'LOT-TWO-STATEMENTS').select('id');
        expect(await app.db('samples').where('request_id', stored.id).orderBy('position').pluck('sample_type_description')).toEqual(['Beef loin', 'Pork belly']);
      });
    }

    it('charges culture and sensitivity per AST panel and keeps the panel texts only with that test', async () => {
      const withCulture = await submit(alice, payload({
        samples: ['Chicken'],
        tests: ['cultureAndSensitivityTest'],
        gramPositiveAst: 'Oxacillin panel',
        gramNegativeAst: 'Ampicillin panel',
      }));
      expect(withCulture.status).toBe(201);
      expect(withCulture.body).toMatchObject({
        estimatedFee: 3000,
        gramPositiveAstText: 'Oxacillin panel',
        gramNegativeAstText: 'Ampicillin panel',
        gramPositiveAst: true,
        gramNegativeAst: true,
        dueDate: '2026-04-07',
      });

      const without = await submit(alice, payload({ samples: ['Chicken'], tests: ['eColi'] }, { gramPositiveAst: 'stale panel' }));
      expect(without.status).toBe(201);
      expect(without.body).toMatchObject({ estimatedFee: 350, gramPositiveAstText: null, gramPositiveAst: false });
    });

    it("stores the e-mail address and company of the client's profile, whatever the payload says", async () => {
      const res = await submit(alice, payload({}, { emailAddress: 'third.party@elsewhere.test', companyName: 'Somebody Else Inc.' }));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ emailAddress: alice.user.email, companyName: 'Example Meats Corp.' });
      const stored = await app.db('requests').where({ id: res.body.requestId }).first('email_address', 'company_name');
      expect(stored).toEqual({ email_address: alice.user.email, company_name: 'Example Meats Corp.' });
    });

    it('stores the LTO number folded and upper case', async () => {
      const res = await submit(alice, payload({ ltoNumber: 'ｌｔｏ-ﬁ9' }));
      expect(res.status).toBe(201);
      expect(res.body.ltoNumber).toBe('LTO-FI9');
    });

    it('stores the other purpose only for purpose Others', async () => {
      const others = await submit(alice, payload({ testingPurpose: 'Others', otherTestingPurpose: 'Research study' }));
      expect(others.body).toMatchObject({ testingPurpose: 'Others', otherTestingPurpose: 'Research study' });
      const export_ = await submit(alice, payload({ testingPurpose: 'Export' }, { otherTestingPurpose: 'ignored' }));
      expect(export_.body).toMatchObject({ testingPurpose: 'Export', otherTestingPurpose: null });
    });

    it.each([
      ['representativeName', { representativeName: '  ' }],
      ['contactNumber', { contactNumber: undefined }],
      ['clientClassification', { clientClassification: null }],
      ['ltoNumber', { ltoNumber: 'LTO-1234567890' }],
      // Twelve characters as typed, twenty-four once upper case ('SS').
      ['ltoNumber', { ltoNumber: 'ß'.repeat(12) }],
      ['productionDate', { productionDate: '2026-02-30' }],
      ['expiryDate', { expiryDate: '01/06/2026' }],
      ['samplingDate', { samplingDate: 20260315 }],
      ['sample', { sample: [] }],
      ['sample', { sample: 'Beef' }],
      ['sample.0.sampleTypeDescription', { sample: [{ sampleId: 1 }] }],
      ['testingPurpose', { testingPurpose: 'Fun' }],
      ['otherTestingPurpose', { testingPurpose: 'Others', otherTestingPurpose: ' ' }],
      ['sampleCategory', { sampleCategory: 'Drive-thru' }],
      ['tests', { standardPlateCount: false, betaLactams: false, dog: false, notATest: true }],
      ['eColi', { eColi: 'yes' }],
      ['createdAt', { createdAt: 'yesterday' }],
    ])('refuses a bad %s and names it', async (field, change) => {
      const res = await submit(alice, payload({}, change));
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(`${field}:`);
    });

    it('lists every bad field in one message and stores nothing', async () => {
      const before = await app.db('requests').count<{ n: number }[]>({ n: '*' });
      const res = await submit(alice, { sample: [], testingPurpose: 'Others' });
      expect(res.status).toBe(400);
      for (const field of ['representativeName', 'contactNumber', 'clientClassification', 'sample', 'otherTestingPurpose', 'sampleCategory', 'tests']) {
        expect(res.body.message).toContain(`${field}:`);
      }
      const after = await app.db('requests').count<{ n: number }[]>({ n: '*' });
      expect(Number(after[0].n)).toBe(Number(before[0].n));
    });

    it('refuses a body that is not an object', async () => {
      const res = await submit(alice, [1, 2]);
      expect(res.status).toBe(400);
    });

    it('lets a client submit only under its own id', async () => {
      const res = await bob.http.post(`/requests/submitrequest/${alice.user.id}`, payload());
      expect(res.status).toBe(403);
    });

    it.each(['staff', 'admin', 'chemtester', 'microbiotester', 'molbiotester'] as const)('refuses a submission by %s', async (role) => {
      const other = await app.signedIn(role);
      expect((await submit(other, payload())).status).toBe(403);
      expect((await other.http.post(`/requests/submitrequest/${alice.user.id}`, payload())).status).toBe(403);
    });

    it('needs a session', async () => {
      expect((await app.anonymous().post(`/requests/submitrequest/${alice.user.id}`, payload())).status).toBe(401);
    });
  });

  describe('reading requests', () => {
    let carol: { user: User; http: HttpClient };
    let own: number;
    beforeAll(async () => {
      carol = await app.signedIn('client');
      const seeded = await insertRequests(app.db, [
        { clientUserId: carol.user.id, tests: ['eColi'], status: 'RELEASED', submissionDate: '2026-01-05T08:00:00.000Z' },
        { clientUserId: carol.user.id, tests: ['dog'], status: 'FOR_TESTING', submissionDate: '2026-02-05T08:00:00.000Z' },
        { clientUserId: bob.user.id, tests: ['dog'], submissionDate: '2026-02-07T08:00:00.000Z' },
      ]);
      const submitted = await submit(carol, payload());
      own = submitted.body.requestId;
      expect(seeded).toHaveLength(3);
    });

    it('lists a client its own requests, newest first', async () => {
      const res = await carol.http.get(`/requests/clientrequest/${carol.user.id}`);
      expect(res.status).toBe(200);
      expect(res.body.map((r: any) => [r.controlNumber, r.submissionDate, r.requestStatus])).toEqual([
        [null, '2026-03-16T09:00:00.000Z', 'PENDING_REVIEW'],
        ['2026-0002', '2026-02-05T08:00:00.000Z', 'FOR_TESTING'],
        ['2026-0001', '2026-01-05T08:00:00.000Z', 'RELEASED'],
      ]);
      expect(Object.keys(res.body[0]).sort()).toEqual(['controlNumber', 'requestId', 'requestStatus', 'submissionDate']);
      expect(res.body[0].requestId).toBe(own);
    });

    it('answers an empty list for a client without requests', async () => {
      const dave = await app.signedIn('client');
      expect((await dave.http.get(`/requests/clientrequest/${dave.user.id}`)).body).toEqual([]);
    });

    it('gives the owner the request with flags and samples, and its samples alone', async () => {
      const detail = await carol.http.get(`/requests/detail/${own}`);
      expect(detail.status).toBe(200);
      expect(detail.body).toMatchObject({ requestId: own, lotBatchNo: 'LOT-9', samplerName: 'R. Cruz', dog: true, estimatedFee: 4050 });
      expect(detail.body.samples.map((s: any) => s.sampleTypeDescription)).toEqual(['Beef loin', 'Pork belly']);

      const samples = await carol.http.get(`/request/${own}`);
      expect(samples.status).toBe(200);
      expect(samples.body).toEqual(detail.body.samples.map((s: any) => ({ sampleId: s.sampleId, sampleTypeDescription: s.sampleTypeDescription })));
    });

    it("refuses another client's list, request and samples, and guessed ids alike", async () => {
      const missing = own + 10_000;
      for (const path of [`/requests/clientrequest/${carol.user.id}`, `/requests/detail/${own}`, `/request/${own}`, `/requests/detail/${missing}`, `/request/${missing}`]) {
        const res = await bob.http.get(path);
        expect(res.status, path).toBe(403);
        expect(res.body.message, path).toBeTruthy();
      }
    });

    it('lets staff read any client request, with 404 for a missing one', async () => {
      expect((await staff.http.get(`/requests/clientrequest/${carol.user.id}`)).body).toHaveLength(3);
      expect((await staff.http.get(`/requests/detail/${own}`)).body.requestId).toBe(own);
      expect((await staff.http.get(`/request/${own}`)).body).toHaveLength(2);
      expect((await staff.http.get(`/requests/detail/${own + 10_000}`)).status).toBe(404);
      expect((await staff.http.get(`/request/${own + 10_000}`)).status).toBe(404);
    });

    it('keeps testers and anonymous callers out', async () => {
      const tester = await app.signedIn('microbiotester');
      for (const path of [`/requests/clientrequest/${carol.user.id}`, `/requests/detail/${own}`]) {
        expect((await tester.http.get(path)).status, path).toBe(403);
        expect((await app.anonymous().get(path)).status, path).toBe(401);
      }
    });

    it.each(['abc', '0', '-4', '1.5', '99999999999'])('answers 400 for the id %s', async (bad) => {
      for (const path of [`/requests/clientrequest/${bad}`, `/requests/detail/${bad}`, `/request/${bad}`]) {
        const res = await staff.http.get(path);
        expect(res.status, path).toBe(400);
        expect(res.body.message, path).toMatch(/Id:/);
      }
    });
  });
});
