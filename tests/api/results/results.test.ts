import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../../fixtures/requests.js';
import type { Role } from '../../../server/domain/roles.js';
import { inTransaction } from '../../../server/db/transaction.js';
import { AppError } from '../../../server/errors.js';
import { analysesOf } from '../../../server/services/results/read.js';
import { writeResults } from '../../../server/services/results/write.js';
import type { HttpClient } from '../../helpers/httpClient.js';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

const LIST_ROW_KEYS = ['requestId', 'controlNumber', 'submissionDate', 'requestStatus', 'microbio', 'chem', 'molBio', 'microbial', 'elisa', 'speciesIdentification'];

const negative = (value = 'Not detected') => ({ value, remarks: 'negative', date: '2026-03-10' });

/** A PUT payload of analyte fields: `{code: {value, remarks, date}}` -> wide fields. */
function payload(fields: Record<string, { value: string; remarks?: string; date?: string | null }>) {
  const body: Record<string, unknown> = {};
  for (const [code, f] of Object.entries(fields)) {
    body[code] = f.value;
    body[`${code}Remarks`] = f.remarks ?? '';
    body[`${code}AnalysisDate`] = f.date ?? null;
  }
  return body;
}

describe(`results calls (${databaseKind()})`, () => {
  let app: TestApp;
  const http = {} as Record<Role | 'otherClient', HttpClient>;
  let clientId: number;
  let otherClientId: number;
  let chemTesterId: number;

  beforeAll(async () => {
    app = await startTestApp();
    for (const role of ['staff', 'chemtester', 'microbiotester', 'molbiotester'] as const) {
      const signed = await app.signedIn(role);
      http[role] = signed.http;
      if (role === 'chemtester') chemTesterId = signed.user.id;
    }
    const client = await app.signedIn('client');
    http.client = client.http;
    clientId = client.user.id;
    const other = await app.signedIn('client');
    http.otherClient = other.http;
    otherClientId = other.user.id;
  });
  afterAll(() => app?.close());

  const status = async (requestId: number) => (await app.db('requests').where('id', requestId).first('status')).status;

  it('stores results per sample, moves the request to FOR_RELEASE when the last one is complete, and back when one is emptied', async () => {
    const [req] = await insertRequests(app.db, [
      { clientUserId: clientId, tests: ['betaLactams', 'chloramphenicol', 'eColi'], status: 'FOR_TESTING', samples: ['Beef', 'Pork'] },
    ]);
    const [s1, s2] = req.sampleIds;
    const put = (path: string, sampleId: number, body: object, who: HttpClient = http.chemtester) => who.put(`${path}/${sampleId}`, body);

    // Chemistry: each group to its own call, per sample.
    let res = await put('/chemMicrobialTestResults', s1, payload({ betaLactams: { value: '0.02 ppm', remarks: 'positive', date: '2026-03-10' } }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sampleId: s1, result: { requestId: req.requestId }, betaLactams: '0.02 ppm', betaLactamsRemarks: 'positive', betaLactamsAnalysisDate: '2026-03-10', tetracyclines: null });
    expect((await put('/chemMicrobialTestResults', s2, payload({ betaLactams: negative() }))).status).toBe(200);
    expect((await put('/chemTestElisaResults', s1, payload({ chloramphenicol: negative() }))).status).toBe(200);
    // A missing remark is stored as none: not complete yet.
    expect((await put('/chemTestElisaResults', s2, payload({ chloramphenicol: { value: '  1.5 ' } }))).status).toBe(200);
    expect((await put('/microbioTestResults', s1, payload({ eColi: negative('<10 cfu/g') }), http.microbiotester)).status).toBe(200);
    expect(await status(req.requestId)).toBe('FOR_TESTING');

    expect((await put('/chemTestElisaResults', s2, payload({ chloramphenicol: { value: '  1.5 ', remarks: 'negative' } }))).status).toBe(200);
    expect(await status(req.requestId)).toBe('FOR_TESTING');
    // The last missing result completes the request.
    expect((await put('/microbioTestResults', s2, payload({ eColi: negative('<10 cfu/g') }), http.microbiotester)).status).toBe(200);
    expect(await status(req.requestId)).toBe('FOR_RELEASE');

    const combined = await http.staff.get(`/getResult/${req.requestId}`);
    expect(combined.status).toBe(200);
    expect(combined.body).toMatchObject({
      requestId: req.requestId,
      completeMicrobio: true, completeChemElisa: true, completeChemMicrobial: true, completeMolBio: false,
      molBioTestResults: [],
    });
    expect(combined.body.chemElisaTestResults.map((r: any) => [r.sampleId, r.chloramphenicol])).toEqual([[s1, 'Not detected'], [s2, '  1.5 ']]);
    expect(combined.body.chemMicrobialTestResults[0]).toMatchObject({ betaLactams: '0.02 ppm', betaLactamsRemarks: 'positive' });

    // Results may still change while awaiting release; emptying one sends the request back to testing.
    res = await put('/microbioTestResults', s2, { eColi: '' }, http.microbiotester);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ eColi: null, eColiRemarks: null, eColiAnalysisDate: null });
    expect(await status(req.requestId)).toBe('FOR_TESTING');
    expect((await http.staff.get(`/getResult/${req.requestId}`)).body.completeMicrobio).toBe(false);

    // An analyte absent from the payload is left unchanged.
    expect((await put('/chemMicrobialTestResults', s1, {})).status).toBe(200);
    const stored = await app.db('analyses').where({ sample_id: s1, test_code: 'betaLactams' }).first();
    expect(stored).toMatchObject({ value: '0.02 ppm', remark: 'positive', analysis_date: '2026-03-10', report_month: '2026-03', entered_by: chemTesterId });

    // Every write is audited with who, before and after, and the status moves.
    const audit = await app.db('audit_log').where({ request_id: req.requestId, action: 'results.write' }).orderBy('id');
    expect(audit).toHaveLength(8);
    expect(audit[0].actor_user_id).toBe(chemTesterId);
    const completing = JSON.parse(audit[6].details);
    expect(completing.status).toEqual({ before: 'FOR_TESTING', after: 'FOR_RELEASE' });
    expect(completing.results).toEqual([{ sampleId: s2, testCode: 'eColi', before: { value: null, remark: null, analysisDate: null }, after: { value: '<10 cfu/g', remark: 'negative', analysisDate: '2026-03-10' } }]);
    expect(JSON.parse(audit[7].details).status).toEqual({ before: 'FOR_RELEASE', after: 'FOR_TESTING' });
  });

  it('counts a result without analysis date in the month it was saved', async () => {
    const [req] = await insertRequests(app.db, [{ clientUserId: clientId, tests: ['dog'], status: 'FOR_TESTING' }]);
    const start = app.clock.now().toISOString();
    app.clock.set('2026-05-31T23:30:00.000Z');
    try {
      const tester = (await app.signedIn('molbiotester')).http;
      expect((await tester.put(`/molBioTestResults/${req.sampleIds[0]}`, { dog: 'Detected', dogRemarks: 'positive' })).status).toBe(200);
      expect(await app.db('analyses').where({ sample_id: req.sampleIds[0] }).first()).toMatchObject({ analysis_date: null, report_month: '2026-05', remark: 'positive' });
    } finally {
      app.clock.set(start);
    }
  });

  it('lets only the matching tester write, and only open requests', async () => {
    const [open, released, rejected] = await insertRequests(app.db, [
      { clientUserId: clientId, tests: ['eColi', 'betaLactams'], status: 'FOR_TESTING' },
      { clientUserId: clientId, tests: ['eColi'], status: 'RELEASED' },
      { clientUserId: clientId, tests: ['eColi'], status: 'REJECTED' },
    ]);
    const body = payload({ eColi: negative() });
    expect((await app.anonymous().put(`/microbioTestResults/${open.sampleIds[0]}`, body)).status).toBe(401);
    for (const who of [http.chemtester, http.molbiotester, http.staff, http.client]) {
      const res = await who.put(`/microbioTestResults/${open.sampleIds[0]}`, body);
      expect(res.status).toBe(403);
      expect(res.body.message).toEqual(expect.any(String));
    }
    for (const req of [released, rejected]) {
      const res = await http.microbiotester.put(`/microbioTestResults/${req.sampleIds[0]}`, body);
      expect(res.status).toBe(409);
      expect(res.body.message).toMatch(/can no longer be changed: it is (RELEASED|REJECTED)/);
    }
    expect((await http.microbiotester.put('/microbioTestResults/999999', body)).status).toBe(404);
    expect((await http.microbiotester.put('/microbioTestResults/abc', body)).status).toBe(400);
    expect(await app.db('analyses').where({ request_id: released.requestId }).first('value')).toEqual({ value: 'Not detected' });
  });

  it('refuses unticked analytes, analytes of another group and bad fields, naming each', async () => {
    const [req] = await insertRequests(app.db, [{ clientUserId: clientId, tests: ['betaLactams', 'chloramphenicol'], status: 'FOR_TESTING' }]);
    const sample = req.sampleIds[0];
    let res = await http.chemtester.put(`/chemMicrobialTestResults/${sample}`, payload({ betaLactams: negative(), quinolones: negative() }));
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('quinolones');
    expect(res.body.message).not.toContain('betaLactams');
    res = await http.chemtester.put(`/chemMicrobialTestResults/${sample}`, payload({ chloramphenicol: negative() }));
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('chloramphenicol is not a chemistry microbial inhibition test');
    res = await http.chemtester.put(`/chemTestElisaResults/${sample}`, {
      chloramphenicol: 'x'.repeat(501), chloramphenicolRemarks: 'maybe', chloramphenicolAnalysisDate: '2026-02-30', colour: 'red',
    });
    expect(res.status).toBe(400);
    for (const field of ['chloramphenicol:', 'chloramphenicolRemarks:', 'chloramphenicolAnalysisDate:', 'colour is not a result field']) {
      expect(res.body.message).toContain(field);
    }
    // Nothing was written by the refused calls.
    const written = await app.db('analyses').where({ request_id: req.requestId }).whereNotNull('value');
    expect(written).toEqual([]);
  });

  it('lists only the caller discipline\'s open requests, with samples and their information', async () => {
    const seeded = await insertRequests(app.db, [
      { clientUserId: clientId, tests: ['eColi'], status: 'FOR_TESTING', samples: ['Chicken breast', 'Chicken wing'] },
      { clientUserId: clientId, tests: ['chloramphenicol', 'dog'], status: 'FOR_RELEASE' },
      { clientUserId: clientId, tests: ['betaLactams'], status: 'RELEASED' },
      { clientUserId: clientId, tests: ['betaLactams'], status: 'PENDING_REVIEW' },
    ]);
    const [micro, chemAndMol] = seeded;
    const ids = (body: any[]) => body.map((r) => r.requestId);

    const chem = await http.chemtester.get('/requests/for-testing');
    expect(chem.status).toBe(200);
    expect(ids(chem.body)).toContain(chemAndMol.requestId);
    expect(ids(chem.body)).not.toContain(micro.requestId);
    expect(chem.body.every((r: any) => r.chem === true && ['FOR_TESTING', 'FOR_RELEASE'].includes(r.requestStatus))).toBe(true);

    const microList = await http.microbiotester.get('/requests/for-testing');
    const listed = microList.body.find((r: any) => r.requestId === micro.requestId);
    expect(listed).toMatchObject({ controlNumber: micro.controlNumber, requestStatus: 'FOR_TESTING', tests: ['eColi'], microbio: true, chem: false });
    // What the screen needs, not the wide request shape.
    expect(Object.keys(listed).sort()).toEqual([...LIST_ROW_KEYS, 'receipt', 'samples', 'tests'].sort());
    expect(listed.receipt).toBeNull();
    expect(listed.samples).toEqual([
      expect.objectContaining({ sampleId: micro.sampleIds[0], sampleTypeDescription: 'Chicken breast', lotBatchNo: 'LOT-001', samplerName: 'J. Sampler', sampleSource: 'Cold storage A', productionDate: '2026-03-02', expiryDate: null, samplingDate: '2026-03-02' }),
      expect.objectContaining({ sampleId: micro.sampleIds[1], sampleTypeDescription: 'Chicken wing' }),
    ]);
    expect(microList.body.every((r: any) => r.microbio === true)).toBe(true);
    expect(ids((await http.molbiotester.get('/requests/for-testing')).body)).toContain(chemAndMol.requestId);
    const all = ids((await http.staff.get('/requests/for-testing')).body);
    expect(all).toEqual(expect.arrayContaining([micro.requestId, chemAndMol.requestId]));
    expect(all).not.toContain(seeded[2].requestId);
    expect((await http.client.get('/requests/for-testing')).status).toBe(403);
    expect((await app.anonymous().get('/requests/for-testing')).status).toBe(401);

    // The per-group lists: a tester's own groups, open requests only; the desk reads every request.
    const elisa = await http.chemtester.get('/chemElisaTestResults');
    expect(elisa.status).toBe(200);
    expect(elisa.body.map((r: any) => r.result.requestId)).toContain(chemAndMol.requestId);
    expect(elisa.body.every((r: any) => 'chloramphenicol' in r && !('eColi' in r))).toBe(true);
    const inhibition = (await http.chemtester.get('/chemMicrobialTestResults')).body.map((r: any) => r.result.requestId);
    expect(inhibition).not.toContain(seeded[2].requestId);
    expect((await http.staff.get('/chemMicrobialTestResults')).body.map((r: any) => r.result.requestId)).toContain(seeded[2].requestId);
    expect((await http.chemtester.get('/microbioTestResults')).status).toBe(403);
    expect((await http.microbiotester.get('/molBioTestResults')).status).toBe(403);
    expect((await http.client.get('/microbioTestResults')).status).toBe(403);
  });

  it('shows a request\'s results to its client only once released, never to another client', async () => {
    const [testing, released] = await insertRequests(app.db, [
      { clientUserId: clientId, tests: ['eColi', 'dog'], status: 'FOR_RELEASE' },
      { clientUserId: clientId, tests: ['eColi', 'dog'], status: 'RELEASED', samples: ['Beef', 'Pork'] },
    ]);
    const early = await http.client.get(`/getResult/${testing.requestId}`);
    expect(early.status).toBe(403);
    expect(early.body.message).toBe('The results of this request are not released yet.');
    expect((await http.otherClient.get(`/getResult/${released.requestId}`)).status).toBe(403);
    expect((await app.anonymous().get(`/getResult/${released.requestId}`)).status).toBe(401);
    // A missing request answers like another client's, so a client cannot probe which ids exist.
    expect((await http.client.get('/getResult/999999')).status).toBe(403);
    expect((await http.staff.get('/getResult/999999')).status).toBe(404);
    expect((await http.client.get('/getResult/x')).status).toBe(400);

    const res = await http.client.get(`/getResult/${released.requestId}`);
    expect(res.status).toBe(200);
    expect(res.body.microbioTestResults).toHaveLength(2);
    expect(res.body.molBioTestResults[1]).toMatchObject({ sampleId: released.sampleIds[1], dog: 'Not detected', dogRemarks: 'negative' });
    expect(res.body).toMatchObject({ completeMicrobio: true, completeMolBio: true, completeChemElisa: false, chemElisaTestResults: [] });

    // Testers read requests of their discipline, and only their own groups.
    const mol = await http.molbiotester.get(`/getResult/${released.requestId}`);
    expect(mol.status).toBe(200);
    expect(mol.body.molBioTestResults).toHaveLength(2);
    expect(mol.body.microbioTestResults).toEqual([]);
    expect((await http.chemtester.get(`/getResult/${released.requestId}`)).status).toBe(403);

    // The batch form: several requests in one call, in the order asked.
    const batch = await http.staff.get(`/getResult?ids=${released.requestId},${testing.requestId}`);
    expect(batch.status).toBe(200);
    expect(batch.body.map((r: any) => r.requestId)).toEqual([released.requestId, testing.requestId]);
    expect((await http.client.get(`/getResult?ids=${released.requestId},${testing.requestId}`)).status).toBe(403);
    expect((await http.staff.get('/getResult?ids=1,zz')).status).toBe(400);
    expect((await http.staff.get('/getResult')).status).toBe(400);
  });

  it('writes many results in one transaction for imports, listing every problem', async () => {
    const seeded = await insertRequests(app.db, [
      { clientUserId: otherClientId, tests: ['eColi'], status: 'FOR_TESTING', samples: ['A', 'B'] },
      { clientUserId: otherClientId, tests: ['eColi', 'salmonellaSp'], status: 'FOR_TESTING' },
    ]);
    const actor = { id: (await app.createUser('microbiotester')).id, role: 'microbiotester' as const };
    const entries = [
      ...seeded[0].sampleIds.map((sampleId) => ({ requestId: seeded[0].requestId, sampleId, testCode: 'eColi', value: '<10', remark: 'negative' as const, analysisDate: '2026-04-01' })),
      { requestId: seeded[1].requestId, sampleId: seeded[1].sampleIds[0], testCode: 'eColi', value: '<10', remark: 'negative' as const, analysisDate: null },
    ];
    const outcome = await inTransaction(app.db, (trx) => writeResults(trx, { clock: app.clock, actor, entries }));
    expect(outcome).toMatchObject({ changed: 3, requestsCompleted: [seeded[0].requestId], requestsReopened: [] });
    // The analyses the outcome carries (which a screen answers with) are the ones now stored.
    const stored = await analysesOf(app.db, [seeded[0].requestId, seeded[1].requestId]);
    const bySampleAndTest = (a: { sampleId: number; testCode: string }, b: { sampleId: number; testCode: string }) => a.sampleId - b.sampleId || a.testCode.localeCompare(b.testCode);
    expect([...outcome.analyses].sort(bySampleAndTest)).toMatchObject([...stored].sort(bySampleAndTest));
    expect(await status(seeded[0].requestId)).toBe('FOR_RELEASE');
    expect(await status(seeded[1].requestId)).toBe('FOR_TESTING');

    const bad = [
      { requestId: seeded[1].requestId, sampleId: seeded[1].sampleIds[0], testCode: 'campylobacter', value: '1', remark: '' as const, analysisDate: null, label: 'line 2' },
      { requestId: seeded[1].requestId, sampleId: seeded[0].sampleIds[0], testCode: 'eColi', value: '1', remark: '' as const, analysisDate: null, label: 'line 3' },
      { requestId: seeded[1].requestId, sampleId: seeded[1].sampleIds[0], testCode: 'salmonellaSp', value: '1', remark: 'positive' as const, analysisDate: null, label: 'line 4' },
    ];
    const error = await inTransaction(app.db, (trx) => writeResults(trx, { clock: app.clock, actor, entries: bad })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    expect((error as AppError).message).toMatch(/^line 2: campylobacter .*; line 3: eColi /);
    // All or nothing: the valid line 4 was not written either.
    expect(await app.db('analyses').where({ sample_id: seeded[1].sampleIds[0], test_code: 'salmonellaSp' }).first('value')).toEqual({ value: null });

    const chem = await inTransaction(app.db, (trx) => writeResults(trx, { clock: app.clock, actor: { id: chemTesterId, role: 'chemtester' }, entries })).catch((e: unknown) => e);
    expect((chem as AppError).status).toBe(403);
    expect((chem as AppError).message).toContain('eColi');
  });
});
