// Issue 26: specifications (versioned, never overwritten), the decision rule, decisions stored with
// the results, conformity in the lists, the statement of conformity on the certificate, and the
// re-evaluation of a released request as an audited amendment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../../fixtures/requests.js';
import type { User } from '../../../server/services/users.js';
import type { HttpClient } from '../../helpers/httpClient.js';
import { pdfText } from '../../helpers/pdfText.js';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

describe(`specifications and statements of conformity (${databaseKind()})`, () => {
  let app: TestApp;
  let staff: HttpClient;
  let chem: HttpClient;
  let microbio: HttpClient;
  let client: { user: User; http: HttpClient };
  let requestId: number;
  let sampleId: number;

  beforeAll(async () => {
    app = await startTestApp();
    app.clock.set('2026-03-20T07:00:00.000Z');
    staff = (await app.signedIn('staff')).http;
    chem = (await app.signedIn('chemtester')).http;
    microbio = (await app.signedIn('microbiotester')).http;
    client = await app.signedIn('client');
    const [req] = await insertRequests(app.db, [{ clientUserId: client.user.id, tests: ['chloramphenicol', 'betaLactams'], status: 'FOR_TESTING' }]);
    requestId = req.requestId;
    [sampleId] = req.sampleIds;
  });
  afterAll(() => app?.close());

  const newSpec = (over: Record<string, unknown> = {}) => ({
    analyte: 'ractopamine', sampleCategory: 'Monitoring', species: null, purpose: null, kind: 'quantitative', unit: 'µg/kg',
    lod: 0.5, loq: 1, lowerLimit: null, upperLimit: 5, warningLevel: null, n: null, c: null, m: null, M: null,
    source: 'Laboratory monitoring programme 2026', validFrom: '2026-01-01', validTo: null, ...over,
  });
  const elisa = (body: Record<string, unknown>) => chem.put(`/chemTestElisaResults/${sampleId}`, body);

  describe('the specifications', () => {
    it('ships the default set with sources, for staff and testers but not clients', async () => {
      const res = await chem.get('/api/specifications?analyte=chloramphenicol&current=true');
      expect(res.status).toBe(200);
      expect(res.body.items).toEqual([
        expect.objectContaining({ analyte: 'chloramphenicol', version: 1, kind: 'quantitative', unit: 'µg/kg', upperLimit: 0.15, loq: 0.1, source: expect.stringContaining('2019/1871') }),
      ]);
      const all = (await staff.get('/api/specifications')).body.items as Array<{ analyte: string; source: string }>;
      expect(all.find((s) => s.analyte === 'salmonellaSp')?.source).toContain('2073/2005');
      expect(all.find((s) => s.analyte === 'horse')).toMatchObject({ upperLimit: 1, unit: '% w/w' });
      expect((await client.http.get('/api/specifications')).status).toBe(403);
      expect((await app.anonymous().get('/api/specifications')).status).toBe(401);
      expect((await staff.get('/api/specifications?current=maybe')).status).toBe(400);
    });

    it('creates a specification (staff), refuses a tester, bad numbers, an unknown test and overlapping dates', async () => {
      expect((await chem.post('/api/specifications', newSpec())).status).toBe(403);
      const created = await staff.post('/api/specifications', newSpec());
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ analyte: 'ractopamine', version: 1, sampleCategory: 'Monitoring', upperLimit: 5, createdBy: expect.any(String), createdAt: '2026-03-20T07:00:00.000Z' });
      const audit = await app.db('audit_log').where({ action: 'specification.create' }).first('details');
      expect(JSON.parse(audit.details).specification).toMatchObject({ id: created.body.id, version: 1 });

      const below = await staff.post('/api/specifications', newSpec({ upperLimit: 0.5, validFrom: '2030-01-01' }));
      expect(below.status).toBe(400);
      expect(below.body.message).toContain('upperLimit 0.5 is below the LOQ 1');
      const unknown = await staff.post('/api/specifications', newSpec({ analyte: 'unicorn' }));
      expect([unknown.status, unknown.body.message]).toEqual([400, 'unicorn is not a test of the catalogue']);
      const notNumber = await staff.post('/api/specifications', newSpec({ upperLimit: 'ten' }));
      expect([notNumber.status, notNumber.body.message]).toEqual([400, 'upperLimit: upperLimit must be a number']);
      const overlap = await staff.post('/api/specifications', newSpec({ validFrom: '2026-06-01' }));
      expect(overlap.status).toBe(409);
      expect(overlap.body.message).toContain('overlap version 1 of ractopamine');
      // Another scope does not overlap.
      expect((await staff.post('/api/specifications', newSpec({ sampleCategory: 'Walk-in' }))).status).toBe(201);
    });

    it('keeps every version: a new one supersedes, never overwrites', async () => {
      const [v1] = (await staff.get('/api/specifications?analyte=ractopamine')).body.items.filter((s: { sampleCategory: string }) => s.sampleCategory === 'Monitoring');
      const v2 = await staff.post('/api/specifications', newSpec({ upperLimit: 4, validFrom: '2026-03-01', supersedes: v1.id }));
      expect(v2.status).toBe(201);
      expect(v2.body.version).toBe(2);
      const again = await staff.post('/api/specifications', newSpec({ upperLimit: 3, validFrom: '2026-03-02', supersedes: v1.id }));
      expect([again.status, again.body.message]).toEqual([409, `Specification ${v1.id} is superseded already, by version 2`]);
      const history = await chem.get(`/api/specifications/${v1.id}/history`);
      expect(history.body.items.map((s: { version: number; upperLimit: number }) => [s.version, s.upperLimit])).toEqual([[2, 4], [1, 5]]);
      expect((await staff.get('/api/specifications/999999/history')).status).toBe(404);
    });
  });

  describe('the decision rule', () => {
    it('is simple by default; staff set it (audited), testers read it', async () => {
      expect((await chem.get('/api/settings/decision-rule')).body).toEqual({ rule: 'simple' });
      expect((await chem.put('/api/settings/decision-rule', { rule: 'guarded' })).status).toBe(403);
      expect((await staff.put('/api/settings/decision-rule', { rule: 'lenient' })).status).toBe(400);
      expect((await staff.put('/api/settings/decision-rule', { rule: 'guarded' })).body).toEqual({ rule: 'guarded' });
      expect((await client.http.get('/api/settings/decision-rule')).status).toBe(403);
      const audit = await app.db('audit_log').where({ action: 'settings.decision-rule' }).first('details');
      expect(JSON.parse(audit.details)).toEqual({ rule: { before: 'simple', after: 'guarded' } });
    });
  });

  describe('results judged when saved', () => {
    it('refuses a non-numeric or negative value, another unit, and a remark that differs without confirmation', async () => {
      const text = await elisa({ chloramphenicolMeasurement: { value: 'lots' } });
      expect([text.status, text.body.message]).toEqual([400, 'chloramphenicolMeasurement: value must be a number']);
      const negative = await elisa({ chloramphenicolMeasurement: { value: -1 } });
      expect([negative.status, negative.body.message]).toEqual([400, 'chloramphenicolMeasurement: value must be between 0 and 1000000000000']);
      const unit = await elisa({ chloramphenicolMeasurement: { value: 0.4, unit: 'mg/kg' } });
      expect([unit.status, unit.body.message]).toEqual([400, `sample ${sampleId}, chloramphenicol: the unit mg/kg does not match the specification's µg/kg`]);
      const differs = await elisa({ chloramphenicolMeasurement: { value: 0.4, uncertainty: 0.05, coverageK: 2 }, chloramphenicolRemarks: 'negative' });
      expect(differs.status).toBe(400);
      expect(differs.body.message).toMatch(/^The remark differs from the decision: confirm it/);
      expect(await app.db('analyses').where({ sample_id: sampleId, test_code: 'chloramphenicol' }).first('value', 'measured_value')).toEqual({ value: null, measured_value: null });
    });

    it('stores the value with U, the decision with its specification version and rule, and the + / − it gives', async () => {
      const res = await elisa({ chloramphenicolMeasurement: { value: 0.4, uncertainty: 0.05, coverageK: 2 }, chloramphenicolAnalysisDate: '2026-03-10' });
      expect(res.status).toBe(200);
      const spec = (await staff.get('/api/specifications?analyte=chloramphenicol')).body.items[0];
      expect(res.body).toMatchObject({
        chloramphenicol: '0.4 µg/kg ± 0.05 (k = 2)',
        chloramphenicolRemarks: 'positive',
        chloramphenicolMeasurement: { value: 0.4, unit: 'µg/kg', uncertainty: 0.05, coverageK: 2, qualifier: null },
        chloramphenicolDecision: {
          outcome: 'does_not_conform', reason: '0.4 µg/kg ± 0.05 is above the limit 0.15 µg/kg', specificationId: spec.id, specificationVersion: 1,
          rule: 'guarded', expectedRemark: 'positive',
        },
      });
      const stored = await app.db('analyses').where({ sample_id: sampleId, test_code: 'chloramphenicol' })
        .first('measured_value', 'measured_unit', 'uncertainty', 'decision_outcome', 'specification_id', 'specification_version', 'decision_rule');
      expect({ ...stored, measured_value: Number(stored.measured_value), uncertainty: Number(stored.uncertainty) }).toEqual({
        measured_value: 0.4, measured_unit: 'µg/kg', uncertainty: 0.05, decision_outcome: 'does_not_conform', specification_id: spec.id, specification_version: 1, decision_rule: 'guarded',
      });
      // A remark the tester confirms against the decision is kept.
      const confirmed = await elisa({ chloramphenicolMeasurement: { value: 0.4, uncertainty: 0.05, coverageK: 2 }, chloramphenicolRemarks: 'negative', chloramphenicolRemarkConfirmed: true, chloramphenicolAnalysisDate: '2026-03-10' });
      expect(confirmed.body.chloramphenicolRemarks).toBe('negative');
      expect((await elisa({ chloramphenicolMeasurement: { value: 0.4, uncertainty: 0.05, coverageK: 2 }, chloramphenicolRemarks: 'positive', chloramphenicolAnalysisDate: '2026-03-10' })).status).toBe(200);
    });

    it('judges a qualitative + / − without a measurement, and the SPEC shape keeps working', async () => {
      const res = await chem.put(`/chemMicrobialTestResults/${sampleId}`, { betaLactams: 'Not detected', betaLactamsRemarks: 'negative', betaLactamsAnalysisDate: '2026-03-10' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ betaLactams: 'Not detected', betaLactamsRemarks: 'negative', betaLactamsMeasurement: null, betaLactamsDecision: { outcome: 'conforms', rule: 'guarded' } });
      expect((await microbio.get(`/api/requests/${requestId}/specifications`)).status).toBe(403);
      const specs = await chem.get(`/api/requests/${requestId}/specifications`);
      expect(specs.body).toMatchObject({ rule: 'guarded', items: expect.arrayContaining([{ sampleId, testCode: 'chloramphenicol', specification: expect.objectContaining({ upperLimit: 0.15 }) }]) });
    });
  });

  describe('release and the certificate', () => {
    it('shows staff the conformity, and the client the statement of conformity on the certificate', async () => {
      const row = (await staff.get('/requests/for-release')).body.find((r: { requestId: number }) => r.requestId === requestId);
      expect(row.conformity).toBe('does_not_conform');
      expect((await client.http.get(`/requests/detail/${requestId}`)).body.conformity).toBeNull();
      expect((await staff.put(`/requests/approveRelease/${requestId}`, { password: TEST_PASSWORD })).status).toBe(200);
      expect((await client.http.get(`/requests/detail/${requestId}`)).body.conformity).toBe('does_not_conform');
      const results = await client.http.get(`/getResult/${requestId}`);
      expect(results.body.chemElisaTestResults[0].chloramphenicolDecision.outcome).toBe('does_not_conform');

      const pdf = await client.http.get(`/requests/${requestId}/certificate.pdf`);
      expect(pdf.status).toBe(200);
      // pdf.js reads the micro sign as Greek mu; table cells wrap, so the checks read short runs.
      const text = (await pdfText(pdf.bytes)).replace(/\s+/g, ' ').replaceAll('μ', 'µ');
      expect(text).toContain('Statement of conformity (ISO/IEC 17025 7.8.6)');
      expect(text).toContain('Decision rule: Guarded acceptance (ILAC-G8:09/2019 4.2.3)');
      expect(text).toContain('Sample Test Specification and source Value (unit, U) Statement');
      expect(text).toContain('1 Chloramphenicol at most 0.15 µg/kg; Regulation (EU) 0.4 µg/kg ± 0.05 (k = 2) does not conform: 0.4');
      expect(text).toContain('2019/1871, Annex');
      expect(text).toContain('1 Beta Lactams not detected; Regulation (EU) No 37/2010, Not detected conforms: not detected');
    });

    it('counts the results judged per analyte and month, for the desk and each discipline', async () => {
      const report = await staff.get('/api/reports/nonconformities?year=2026');
      expect(report.status).toBe(200);
      expect(report.body).toEqual({
        year: 2026,
        rows: [
          { testCode: 'betaLactams', discipline: 'chem', month: '2026-03', doesNotConform: 0, inconclusive: 0, conforms: 1 },
          { testCode: 'chloramphenicol', discipline: 'chem', month: '2026-03', doesNotConform: 1, inconclusive: 0, conforms: 0 },
        ],
      });
      expect((await microbio.get('/api/reports/nonconformities?year=2026')).body.rows).toEqual([]);
      expect((await chem.get('/api/reports/nonconformities?year=2026')).body.rows).toHaveLength(2);
      expect((await client.http.get('/api/reports/nonconformities')).status).toBe(403);
      expect((await staff.get('/api/reports/nonconformities?year=1800')).status).toBe(400);
      // The seed's report calls keep their shape.
      expect(Object.keys((await staff.get('/api/reports/chemelisareport?year=2026')).body)).toContain('chloramphenicolPosNegCountsByMonthAndYear');
    });

    it('never changes a released decision silently: re-evaluation is a signed, audited amendment', async () => {
      const [v1] = (await staff.get('/api/specifications?analyte=chloramphenicol')).body.items;
      const v2 = await staff.post('/api/specifications', { ...v1, id: undefined, version: undefined, createdBy: undefined, createdAt: undefined, upperLimit: 0.5, loq: 0.1, supersedes: v1.id });
      expect(v2.status).toBe(201);
      const stillReleased = await client.http.get(`/getResult/${requestId}`);
      expect(stillReleased.body.chemElisaTestResults[0].chloramphenicolDecision).toMatchObject({ outcome: 'does_not_conform', specificationVersion: 1 });

      const url = `/api/requests/${requestId}/re-evaluate`;
      expect((await chem.post(url, { reason: 'x', password: TEST_PASSWORD })).status).toBe(403);
      expect((await staff.post(url, { reason: 'Specification corrected', password: 'wrong' })).status).toBe(403);
      const res = await staff.post(url, { reason: 'Specification corrected', password: TEST_PASSWORD });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ requestId, reportNumber: expect.stringMatching(/-R2$/) });
      const after = await client.http.get(`/getResult/${requestId}`);
      expect(after.body.chemElisaTestResults[0].chloramphenicolDecision).toMatchObject({ outcome: 'conforms', specificationVersion: 2 });
      const audit = await app.db('audit_log').where({ action: 'report.re-evaluate', request_id: requestId }).first('details');
      expect(JSON.parse(audit.details)).toMatchObject({ reason: 'Specification corrected', decisions: [{ testCode: 'chloramphenicol', before: { outcome: 'does_not_conform' }, after: { outcome: 'conforms' } }] });
      const reports = await client.http.get(`/requests/${requestId}/reports`);
      expect(reports.body[1].changes).toEqual([{
        samplePosition: 1, testCode: 'chloramphenicol',
        before: expect.objectContaining({ conformity: 'does_not_conform' }), after: expect.objectContaining({ conformity: 'conforms' }),
      }]);
      // The amended certificate names the statement it changed, beside the one it replaces.
      const amended = (await pdfText((await client.http.get(`/requests/${requestId}/certificate.pdf`)).bytes)).replace(/\s+/g, ' ').replaceAll('μ', 'µ');
      expect(amended).toContain(`Changes from report ${reports.body[0].reportNumber}`);
      expect(amended).toContain('Sample Test As reported before As amended');
      // Cells wrap side by side, so the check reads each cell's runs in the order pdf.js gives them.
      expect(amended).toMatch(/1 Chloramphenicol 0\.4 µg\/kg ± 0\.05 \(k = 2\); WARNING: Positive .*\(\+\); statement: does not conform; .*\(\+\); statement: conforms;/u);
      const again = await staff.post(url, { reason: 'Again', password: TEST_PASSWORD });
      expect([again.status, again.body.message]).toEqual([400, 'Every decision stands under the specifications and decision rule in force: nothing to re-evaluate.']);
    });
  });
});
