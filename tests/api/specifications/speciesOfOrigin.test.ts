// Issue 26: each sample may state the species its meat comes from; a specification narrowed to a
// species judges the samples of that species, the general one every other sample of the same
// request. Submission with and without species, bad species, the lookup, the stored decision and
// the certificate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSubmitPayload, type SubmitRequestForm } from '../../../server/domain/requestPayload.js';
import type { SampleRecord } from '../../../server/domain/requestShape.js';
import type { User } from '../../../server/services/users.js';
import type { HttpClient } from '../../helpers/httpClient.js';
import { pdfText } from '../../helpers/pdfText.js';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

const form = (overrides: Partial<SubmitRequestForm> = {}): SubmitRequestForm => ({
  representativeName: 'acme', contactNumber: '639171234567', emailAddress: 'x@acme.test', companyName: 'Acme',
  clientClassification: 'Importer', ltoNumber: 'LTO-1', testingPurpose: 'Local_Trade', otherTestingPurpose: '',
  sampleCategory: 'Walk-in', lotBatchNo: 'LOT-7', sampleSource: '', productionDate: '', expiryDate: '',
  samplingDate: '2026-03-15', samplerName: '', samples: ['Pork belly', 'Beef loin', 'Mixed trimmings'], sampleSpecies: ['swine', 'cattle', ''],
  tests: ['ractopamine'], gramPositiveAst: '', gramNegativeAst: '',
  ...overrides,
});

describe(`species of origin (${databaseKind()})`, () => {
  let app: TestApp;
  let staff: HttpClient;
  let chem: HttpClient;
  let client: { user: User; http: HttpClient };
  let requestId: number;
  let samples: SampleRecord[];
  let swineSpecId: number;
  let generalSpecId: number;

  beforeAll(async () => {
    app = await startTestApp();
    app.clock.set('2026-03-20T07:00:00.000Z');
    staff = (await app.signedIn('staff')).http;
    chem = (await app.signedIn('chemtester')).http;
    client = await app.signedIn('client');
  });
  afterAll(() => app?.close());

  const submit = (body: unknown) => client.http.post(`/requests/submitrequest/${client.user.id}`, body);
  const swineSpec = (over: Record<string, unknown> = {}) => ({
    analyte: 'ractopamine', sampleCategory: null, species: 'swine', purpose: null, kind: 'quantitative', unit: 'µg/kg',
    lod: 0.5, loq: 1, lowerLimit: null, upperLimit: 5, warningLevel: null, n: null, c: null, m: null, M: null,
    source: 'Laboratory policy for pig meat 2026', validFrom: '2026-01-01', validTo: null, ...over,
  });

  describe('submission', () => {
    it('stores each sample\'s species, or none, and returns it with the request and to the testers', async () => {
      const res = await submit(buildSubmitPayload(form(), app.clock.now()));
      expect(res.status).toBe(201);
      requestId = res.body.requestId;
      expect(res.body.samples.map((s: { position: number; species: string | null }) => [s.position, s.species])).toEqual([[1, 'swine'], [2, 'cattle'], [3, null]]);
      const detail = await staff.get(`/requests/detail/${requestId}`);
      samples = detail.body.samples;
      expect(samples.map((s) => [s.sampleTypeDescription, s.species])).toEqual([['Pork belly', 'swine'], ['Beef loin', 'cattle'], ['Mixed trimmings', null]]);
      expect((await client.http.get(`/requests/detail/${requestId}`)).body.samples.map((s: { species: string | null }) => s.species)).toEqual(['swine', 'cattle', null]);
      // The SPEC's samples call keeps its shape.
      expect((await client.http.get(`/request/${requestId}`)).body[0]).toEqual({ sampleId: samples[0].sampleId, sampleTypeDescription: 'Pork belly' });
    });

    it('takes a submission without any species as before (not stated)', async () => {
      const res = await submit(buildSubmitPayload(form({ sampleSpecies: undefined, samples: ['Chicken breast'] }), app.clock.now()));
      expect(res.status).toBe(201);
      expect(res.body.samples).toEqual([expect.objectContaining({ sampleTypeDescription: 'Chicken breast', species: null })]);
      const stored = await app.db('samples').where({ request_id: res.body.requestId }).first('species');
      expect(stored.species).toBeNull();
    });

    it('refuses a species the catalogue does not know, naming the field, and stores nothing', async () => {
      const before = await app.db('requests').count({ n: '*' }).first();
      const body = buildSubmitPayload(form(), app.clock.now());
      const res = await submit({ ...body, sample: [body.sample![0], { sampleTypeDescription: 'Venison', species: 'deer' }] });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('sample.1.species: must be one of dog, cat, chicken, buffalo, cattle, horse, goat, sheep, swine (or null: not stated)');
      const notText = await submit({ ...body, sample: [{ sampleTypeDescription: 'Pork', species: 7 }] });
      expect([notText.status, notText.body.message]).toEqual([400, 'sample.0.species: must be one of dog, cat, chicken, buffalo, cattle, horse, goat, sheep, swine (or null: not stated)']);
      expect((await app.db('requests').count({ n: '*' }).first())!.n).toEqual(before!.n);
    });
  });

  describe('specifications narrowed to a species', () => {
    it('refuses a species outside the catalogue in a specification', async () => {
      const res = await staff.post('/api/specifications', swineSpec({ species: 'pig' }));
      expect([res.status, res.body.message]).toEqual([400, 'species: species must be one of dog, cat, chicken, buffalo, cattle, horse, goat, sheep, swine (null: any)']);
      const created = await staff.post('/api/specifications', swineSpec());
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ analyte: 'ractopamine', species: 'swine', version: 1, upperLimit: 5 });
      swineSpecId = created.body.id;
      generalSpecId = (await staff.get('/api/specifications?analyte=ractopamine')).body.items.find((s: { species: string | null }) => s.species === null).id;
    });

    it('shows the tester each sample\'s species and the specification that applies to it', async () => {
      expect((await staff.put(`/requests/approve/${requestId}`)).status).toBe(200);
      const row = (await chem.get('/requests/for-testing')).body.find((r: { requestId: number }) => r.requestId === requestId);
      expect(row.samples.map((s: { species: string | null }) => s.species)).toEqual(['swine', 'cattle', null]);
      const queued = (await chem.get('/requests/queue/for-testing')).body.find((r: { requestId: number }) => r.requestId === requestId);
      expect(queued.sampleList.map((s: { species: string | null }) => s.species)).toEqual(['swine', 'cattle', null]);
      const specs = await chem.get(`/api/requests/${requestId}/specifications`);
      expect(specs.body.items.map((i: { sampleId: number; specification: { id: number } }) => [i.sampleId, i.specification.id])).toEqual([
        [samples[0].sampleId, swineSpecId], [samples[1].sampleId, generalSpecId], [samples[2].sampleId, generalSpecId],
      ]);
    });

    it('judges the swine sample against the swine specification and the others against the general one, storing which', async () => {
      const enter = (sampleId: number) => chem.put(`/chemTestElisaResults/${sampleId}`, { ractopamineMeasurement: { value: 7 }, ractopamineAnalysisDate: '2026-03-18' });
      const swine = await enter(samples[0].sampleId);
      expect(swine.status).toBe(200);
      expect(swine.body.ractopamineDecision).toMatchObject({ outcome: 'does_not_conform', reason: '7 µg/kg is above the limit 5 µg/kg', specificationId: swineSpecId, specificationVersion: 1 });
      expect(swine.body.ractopamineRemarks).toBe('positive');
      const cattle = await enter(samples[1].sampleId);
      expect(cattle.body.ractopamineDecision).toMatchObject({ outcome: 'conforms', specificationId: generalSpecId, specificationVersion: 1 });
      const unstated = await enter(samples[2].sampleId);
      expect(unstated.body.ractopamineDecision).toMatchObject({ outcome: 'conforms', specificationId: generalSpecId });
      const stored = await app.db('analyses').where({ request_id: requestId }).orderBy('sample_id').select('sample_id', 'decision_outcome', 'specification_id', 'specification_version');
      expect(stored.map((a) => [Number(a.sample_id), a.decision_outcome, Number(a.specification_id), Number(a.specification_version)])).toEqual([
        [samples[0].sampleId, 'does_not_conform', swineSpecId, 1],
        [samples[1].sampleId, 'conforms', generalSpecId, 1],
        [samples[2].sampleId, 'conforms', generalSpecId, 1],
      ]);
    });

    it('prints each sample\'s species of origin on the certificate', async () => {
      expect((await staff.put(`/requests/approveRelease/${requestId}`, { password: TEST_PASSWORD })).status).toBe(200);
      const pdf = await client.http.get(`/requests/${requestId}/certificate.pdf`);
      expect(pdf.status).toBe(200);
      const text = (await pdfText(pdf.bytes)).replace(/\s+/g, ' ');
      expect(text).toContain('Pork belly (species of origin: Swine)');
      expect(text).toContain('Beef loin (species of origin: Cattle)');
      expect(text).toContain('3 Mixed trimmings');
      expect(text).not.toContain('Mixed trimmings (species');
      // Deterministic: the same report prints the same bytes.
      expect(Buffer.compare(Buffer.from(pdf.bytes), Buffer.from((await client.http.get(`/requests/${requestId}/certificate.pdf`)).bytes))).toBe(0);
    });
  });
});
