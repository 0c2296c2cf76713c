import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../../fixtures/requests.js';
import { LIMITS } from '../../../server/services/rateLimits.js';
import type { User } from '../../../server/services/users.js';
import type { HttpClient } from '../../helpers/httpClient.js';
import { pdfText } from '../../helpers/pdfText.js';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

describe(`certificates of analysis (${databaseKind()})`, () => {
  let app: TestApp;
  let staff: { user: User; http: HttpClient };
  let clientA: { user: User; http: HttpClient };
  let clientB: { user: User; http: HttpClient };
  let requestId: number;
  let controlNumber: string;
  let sampleIds: number[];
  let unreleased: number;
  let bare: { requestId: number; controlNumber: string };

  const RELEASED_AT = '2026-03-20T07:30:00.000Z';

  beforeAll(async () => {
    app = await startTestApp({ LAB_ADDRESS: '12 Test Street, Quezon City' });
    app.clock.set('2026-03-20T07:00:00.000Z');
    staff = await app.signedIn('staff', { firstName: 'Rosa', lastName: 'Reyes' });
    clientA = await app.signedIn('client', { companyName: 'Alpha Meats Inc.' });
    clientB = await app.signedIn('client', { companyName: 'Beta Foods' });
    const [complete, open, withoutRecords] = await insertRequests(app.db, [
      {
        clientUserId: clientA.user.id,
        tests: ['eColi', 'betaLactams'],
        samples: ['Beef loin, chilled', 'Pork belly'],
        status: 'FOR_RELEASE',
        result: (position, code) => ({
          value: code === 'eColi' && position === 2 ? '2.3 x 10^3' : 'Not detected',
          remark: code === 'eColi' && position === 2 ? 'positive' : 'negative',
          analysisDate: position === 1 ? '2026-03-10' : '2026-03-12',
        }),
      },
      { clientUserId: clientA.user.id, tests: ['eColi'], status: 'FOR_RELEASE' },
      { clientUserId: clientB.user.id, tests: ['eColi'], status: 'FOR_RELEASE' },
    ]);
    ({ requestId, sampleIds } = complete);
    controlNumber = complete.controlNumber!;
    unreleased = open.requestId;
    bare = { requestId: withoutRecords.requestId, controlNumber: withoutRecords.controlNumber! };
  });
  afterAll(() => app?.close());

  const release = (id: number, body: unknown) => staff.http.put(`/requests/approveRelease/${id}`, body);
  const certificate = (who: HttpClient, id = requestId, query = '') => who.get(`/requests/${id}/certificate.pdf${query}`);
  const tokenOf = async (version: number) =>
    (await app.db('reports').where({ request_id: requestId, version }).first('verification_token')).verification_token as string;

  describe('client address and sample receipt', () => {
    const address = (who: HttpClient, userId: number, body: unknown) => who.put(`/clientview/${userId}/address`, body);

    it('lets a client set its own company address, which the desk reads but may not change', async () => {
      expect((await address(app.anonymous(), clientA.user.id, { address: 'x' })).status).toBe(401);
      expect((await address(clientB.http, clientA.user.id, { address: 'Not theirs' })).status).toBe(403);
      expect((await address(staff.http, clientA.user.id, { address: 'Desk edit' })).status).toBe(403);
      const long = await address(clientA.http, clientA.user.id, { address: 'x'.repeat(301) });
      expect(long.status).toBe(400);
      expect(long.body.message).toBe('address: use at most 300 characters');

      const saved = await address(clientA.http, clientA.user.id, { address: '  7 Rizal Avenue, Manila 1000 ' });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ companyName: 'Alpha Meats Inc.', address: '7 Rizal Avenue, Manila 1000' });
      expect((await staff.http.get(`/clientview/${clientA.user.id}`)).body.address).toBe('7 Rizal Avenue, Manila 1000');
      // the desk sees it on the request too
      expect((await staff.http.get(`/requests/pendingrequest/${requestId}`)).body.companyAddress).toBe('7 Rizal Avenue, Manila 1000');
      expect((await clientB.http.get(`/clientview/${clientB.user.id}`)).body.address).toBeNull();
      const audit = await app.db('audit_log').where({ action: 'profile.address', actor_user_id: clientA.user.id }).first('details');
      expect(JSON.parse(audit.details)).toEqual({ before: { address: null }, after: { address: '7 Rizal Avenue, Manila 1000' } });
    });

    it('records how the samples arrived, for the certificate', async () => {
      const res = await staff.http.post(`/requests/receive/${requestId}`, {
        receivedAt: '2026-03-03T09:30:00Z', containers: 2, condition: 'not-acceptable', reason: 'one container leaking', temperatureC: 12,
      });
      expect(res.status).toBe(201);
    });
  });

  describe('signed release', () => {
    it('refuses a release without the password or with a wrong one, and releases nothing', async () => {
      const missing = await release(requestId, {});
      expect(missing.status).toBe(400);
      expect(missing.body.message).toBe('password: enter your password to sign');

      const wrong = await release(requestId, { password: 'not my password' });
      expect(wrong.status).toBe(403);
      expect(wrong.body.message).toBe('Your password is incorrect: nothing was released.');
      expect((await app.db('requests').where('id', requestId).first('status')).status).toBe('FOR_RELEASE');
      expect(await app.db('reports').where('request_id', requestId)).toEqual([]);
      // counted like a failed login: once per address, per account and per account and address
      const buckets = await app.db('rate_limits').where('key', 'like', 'signature:%').pluck('count');
      expect(buckets.map(Number)).toEqual([1, 1, 1]);
    });

    it('records the signer, time and meaning with the first report, and audits both', async () => {
      app.clock.set(RELEASED_AT);
      const res = await release(requestId, { password: TEST_PASSWORD });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ requestId, requestStatus: 'RELEASED', reportNumber: `${controlNumber}-R1` });
      const report = await app.db('reports').where('request_id', requestId).first();
      expect(report).toMatchObject({
        version: 1,
        report_number: `${controlNumber}-R1`,
        issued_at: RELEASED_AT,
        signer_name: 'Rosa Reyes',
        signature_meaning: 'Results reviewed and approved for release',
        replaces_report_id: null,
      });
      expect(Number(report.signed_by)).toBe(staff.user.id);
      expect(report.verification_token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      await app.sendQueuedMail();
      const actions = await app.db('audit_log').where('request_id', requestId).orderBy('id').pluck('action');
      expect(actions).toEqual(['request.receive', 'report.issue', 'request.release', 'mail.sent']);
    });
  });

  describe('download', () => {
    it('asks an anonymous caller to log in, refuses another client, and an unreleased request', async () => {
      expect((await certificate(app.anonymous())).status).toBe(401);
      const other = await certificate(clientB.http);
      expect(other.status).toBe(403);
      expect(other.body).toEqual({ message: 'You do not have permission to do this.' });
      const early = await certificate(clientA.http, unreleased);
      expect(early.status).toBe(409);
      expect(early.body.message).toBe('This request has not been released: its certificate is issued on release.');
      expect((await certificate(staff.http, 999999)).status).toBe(404);
      expect((await certificate(clientA.http, requestId, '?version=abc')).status).toBe(400);
    });

    it('gives the owning client and staff the same certificate with every ISO/IEC 17025 7.8.2.1 item', async () => {
      const res = await certificate(clientA.http);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="certificate-${controlNumber}-R1.pdf"`);
      const text = await pdfText(res.bytes);
      const token = await tokenOf(1);
      for (const item of [
        'Certificate of Analysis',
        app.config.labName,
        '12 Test Street, Quezon City',
        `Report No.: ${controlNumber}-R1`,
        `Control Number: ${controlNumber}`,
        'Name: Alpha Meats Inc.',
        'Address: 7 Rizal Avenue, Manila 1000',
        'Beef loin, chilled',
        'Pork belly',
        'Not acceptable (one container leaking)',
        'Condition on arrival: Not acceptable (one container leaking)',
        'Temperature on arrival: 12 °C (above the 10 °C limit for microbiology)',
        'ISO 16649-2:2001',
        'Beta Lactams: Microbial inhibition test, in-house method LM-CHEM-01',
        'E.Coli: ISO 16649-2:2001',
        'cfu/g',
        '2.3 x 10^3',
        'WARNING: Positive (+)',
        'Negative (-)',
        'Date of request: 2026-03-02',
        'Date of receipt: 2026-03-03 09:30 UTC',
        'Date of sampling: 2026-03-02',
        'Date(s) of analysis: 2026-03-10 to 2026-03-12',
        'Date of issue: 2026-03-20',
        'Authorized by: Rosa Reyes',
        'Signature meaning: Results reviewed and approved for release',
        'Results relate only to the items tested.',
        `${app.url}/verify/${token}`,
      ]) {
        expect(text).toContain(item);
      }
      expect(text).toMatch(new RegExp(`Report ${controlNumber}-R1\\s+Page 1 of`));
      expect(text).not.toMatch(/good/i);
      expect(text).not.toContain('Received in acceptable condition');
      const pages = text.split('\f').filter((p) => p.trim());
      pages.forEach((page, i) => expect(page).toContain(`Page ${i + 1} of ${pages.length}`));

      const staffCopy = await certificate(staff.http);
      expect(staffCopy.status).toBe(200);
      // deterministic: the same report gives the same bytes
      expect(staffCopy.bytes.equals(res.bytes)).toBe(true);
      expect(res.bytes.subarray(0, 5).toString()).toBe('%PDF-');
      const downloads = await app.db('audit_log').where({ request_id: requestId, action: 'report.download' }).orderBy('id').pluck('actor_user_id');
      expect(downloads.map(Number)).toEqual([clientA.user.id, staff.user.id]);
    });
  });

  it('says so honestly when the client gave no address and no sample receipt was recorded', async () => {
    expect((await release(bare.requestId, { password: TEST_PASSWORD })).status).toBe(200);
    const text = await pdfText((await certificate(clientB.http, bare.requestId)).bytes);
    for (const item of [
      'Name: Beta Foods',
      'Address: Address not on file',
      'Date of receipt: Not recorded (no sample receipt was entered)',
      'Condition on arrival: Not recorded (no sample receipt was entered)',
      'Temperature on arrival: Not recorded (no sample receipt was entered)',
    ]) {
      expect(text).toContain(item);
    }
  });

  describe('public verification', () => {
    it('confirms the report id, control number, issue date and status to anyone, and audits it', async () => {
      const res = await app.anonymous().get(`/verify/${await tokenOf(1)}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ reportNumber: `${controlNumber}-R1`, controlNumber, issueDate: '2026-03-20', status: 'valid' });
      const audit = await app.db('audit_log').where({ action: 'report.verify', request_id: requestId }).first();
      expect(audit.actor_user_id).toBeNull();
    });

    it('answers 404 with a message for an unknown token', async () => {
      const res = await app.anonymous().get('/verify/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('No certificate has this verification code. Check the address printed under the QR code.');
    });

    it('audits a look-up only when it finds a certificate: unknown tokens are only counted', async () => {
      // A fresh allowance for this address: the other verification tests share it.
      await app.db('rate_limits').where('key', 'like', 'verify:%').delete();
      const verifyRows = async () => Number((await app.db('audit_log').where({ action: 'report.verify' }).count({ n: '*' }))[0].n);
      const before = await verifyRows();
      const anonymous = app.anonymous();
      for (let i = 0; i < 50; i += 1) {
        const res = await anonymous.get(`/verify/UNKNOWN${String(i).padStart(4, '0')}AAAAAAAAAAAAAAAAAAAA`);
        expect(res.status).toBe(404);
      }
      expect(await verifyRows()).toBe(before);
      const counted = await app.db('rate_limits').where('key', 'like', 'verify:ip:%').first('count');
      expect(Number(counted.count)).toBe(50);

      expect((await anonymous.get(`/verify/${await tokenOf(1)}`)).status).toBe(200);
      expect(await verifyRows()).toBe(before + 1);
      const latest = await app.db('audit_log').where({ action: 'report.verify' }).orderBy('id', 'desc').first();
      expect(Number(latest.request_id)).toBe(requestId);
      expect(JSON.parse(latest.details)).toEqual({ reportNumber: `${controlNumber}-R1`, found: true });
    });

    it('hands a browser the portal page at the same address', async () => {
      const res = await app.anonymous().get(`/verify/${await tokenOf(1)}`, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
      // the tests' app has no built portal: the SPA middleware says so, so the page, not the API, answered
      expect(res.status).toBe(503);
      expect(res.body.message).toBe('The portal has not been built yet: run `npm run build`.');
    });
  });

  describe('amendment after release', () => {
    const correction = () => ({
      reason: 'Transcription error in sample 2',
      password: TEST_PASSWORD,
      results: [{ sampleId: sampleIds[1], testCode: 'eColi', value: 'Not detected', remark: 'negative', analysisDate: '2026-03-12' }],
    });

    it('is for staff only, signed, and needs a reason and a real change', async () => {
      const url = `/requests/${requestId}/amendments`;
      expect((await clientA.http.post(url, correction())).status).toBe(403);
      expect((await app.anonymous().post(url, correction())).status).toBe(401);
      const wrong = await staff.http.post(url, { ...correction(), password: 'nope' });
      expect(wrong.status).toBe(403);
      expect(wrong.body.message).toBe('Your password is incorrect: nothing was amended.');
      const noReason = await staff.http.post(url, { ...correction(), reason: ' ' });
      expect(noReason.status).toBe(400);
      expect(noReason.body.message).toBe('reason: give the reason for the amendment');
      const same = await staff.http.post(url, { ...correction(), results: [{ ...correction().results[0], value: 'Not detected', testCode: 'betaLactams' }] });
      expect(same.status).toBe(400);
      expect(same.body.message).toBe('These results are the ones already reported: nothing to amend.');
      const stranger = await staff.http.post(url, { ...correction(), results: [{ ...correction().results[0], testCode: 'dog' }] });
      expect(stranger.status).toBe(400);
      expect(stranger.body.message).toBe(`sample ${sampleIds[1]} has no test dog in this request`);
      const early = await staff.http.post(`/requests/${unreleased}/amendments`, correction());
      expect(early.status).toBe(409);
      expect(await app.db('reports').where('request_id', requestId).pluck('version')).toEqual([1]);
    });

    it('issues a new report naming the one it replaces, keeps the old one, and e-mails the client', async () => {
      app.clock.set('2026-03-20T08:15:00.000Z');
      const res = await staff.http.post(`/requests/${requestId}/amendments`, correction());
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ requestId, reportNumber: `${controlNumber}-R2`, replaces: `${controlNumber}-R1` });

      const list = await clientA.http.get(`/requests/${requestId}/reports`);
      expect(list.status).toBe(200);
      expect(list.body.map((r: { reportNumber: string; status: string; replaces: string | null }) => [r.reportNumber, r.status, r.replaces])).toEqual([
        [`${controlNumber}-R1`, 'amended', null],
        [`${controlNumber}-R2`, 'valid', `${controlNumber}-R1`],
      ]);
      // The amendment names what it changed, old and new, so every screen can mark the amended value.
      expect(list.body[0].changes).toEqual([]);
      expect(list.body[1]).toMatchObject({ signerName: expect.any(String), issuedAt: '2026-03-20T08:15:00.000Z', amendmentReason: 'Transcription error in sample 2' });
      expect(list.body[1].changes).toEqual([
        {
          samplePosition: 2,
          testCode: 'eColi',
          before: expect.objectContaining({ value: expect.any(String) }),
          after: { value: 'Not detected', remark: 'negative', analysisDate: '2026-03-12' },
        },
      ]);
      expect(list.body[1].changes[0].before).not.toEqual(list.body[1].changes[0].after);
      expect((await clientB.http.get(`/requests/${requestId}/reports`)).status).toBe(403);

      const amended = await pdfText((await certificate(clientA.http)).bytes);
      expect(amended).toContain(`Amendment 1 to ${controlNumber}-R1`);
      expect(amended).toContain('Reason for amendment: Transcription error in sample 2');
      expect(amended).toContain('Signature meaning: Amended results reviewed and approved for release');
      expect(amended).toContain('Signed electronically: 2026-03-20 08:15 UTC');
      // The old value is printed once: as reported before, in the table of what the amendment changed.
      expect(amended.split('2.3 x 10^3')).toHaveLength(2);
      expect(amended.replace(/\s+/g, ' ')).toMatch(new RegExp(`Changes from report ${controlNumber}-R1 Sample Test As reported before As amended 2 E\\. ?[Cc]oli 2\\.3 x 10\\^3`));

      // the original is unchanged
      const original = await pdfText((await certificate(clientA.http, requestId, '?version=1')).bytes);
      expect(original).toContain(`Report No.: ${controlNumber}-R1`);
      expect(original).toContain('2.3 x 10^3');
      expect(original).not.toContain('Amendment');

      const verifyOld = await app.anonymous().get(`/verify/${await tokenOf(1)}`);
      expect(verifyOld.body).toEqual({ reportNumber: `${controlNumber}-R1`, controlNumber, issueDate: '2026-03-20', status: 'amended' });
      expect((await app.anonymous().get(`/verify/${await tokenOf(2)}`)).body.status).toBe('valid');

      const mail = await app.mailbox.waitFor(clientA.user.email, (m) => m.subject.includes('amended certificate'));
      expect(mail.text).toContain(`Certificate ${controlNumber}-R2 replaces certificate ${controlNumber}-R1`);
      expect(mail.text).toContain('Reason: Transcription error in sample 2');
      expect(await app.db('audit_log').where({ request_id: requestId, action: 'report.amend' }).first()).toBeTruthy();
    });
  });

  describe('withdrawal', () => {
    const withdraw = (who: HttpClient, number: string, body: unknown) => who.post(`/certificates/${number}/withdraw`, body);
    const reason = 'Samples of another client were tested under this control number';

    it('is for staff only, signed, and needs a reason and a known report', async () => {
      const r2 = `${controlNumber}-R2`;
      expect((await withdraw(app.anonymous(), r2, { reason, password: TEST_PASSWORD })).status).toBe(401);
      expect((await withdraw(clientA.http, r2, { reason, password: TEST_PASSWORD })).status).toBe(403);
      const wrong = await withdraw(staff.http, r2, { reason, password: 'nope' });
      expect(wrong.status).toBe(403);
      expect(wrong.body.message).toBe('Your password is incorrect: nothing was withdrawn.');
      const noReason = await withdraw(staff.http, r2, { reason: ' ', password: TEST_PASSWORD });
      expect(noReason.status).toBe(400);
      expect(noReason.body.message).toBe('reason: give the reason for the withdrawal');
      const badNumber = await withdraw(staff.http, 'R2', { reason, password: TEST_PASSWORD });
      expect(badNumber.status).toBe(400);
      expect(badNumber.body.message).toBe('reportNumber: must be a report number such as 2026-0012-R1');
      const unknown = await withdraw(staff.http, '2026-9999-R1', { reason, password: TEST_PASSWORD });
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe('There is no report 2026-9999-R1.');
      expect(await app.db('report_withdrawals')).toEqual([]);
    });

    it('marks the report withdrawn everywhere without overwriting it, and e-mails the client', async () => {
      const r2 = `${controlNumber}-R2`;
      const before = await app.db('reports').where('report_number', r2).first();
      app.clock.set('2026-03-20T08:25:00.000Z');
      const mark = app.mailbox.mark();
      const res = await withdraw(staff.http, r2, { reason, password: TEST_PASSWORD });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ reportNumber: r2, controlNumber, withdrawnAt: '2026-03-20T08:25:00.000Z', status: 'withdrawn' });
      expect(await app.db('reports').where('report_number', r2).first()).toEqual(before);

      // the public page says withdrawn, and nothing more (not the reason)
      const verified = await app.anonymous().get(`/verify/${await tokenOf(2)}`);
      expect(verified.body).toEqual({ reportNumber: r2, controlNumber, issueDate: '2026-03-20', status: 'withdrawn' });

      const list = await clientA.http.get(`/requests/${requestId}/reports`);
      expect(list.body.map((r: { status: string }) => r.status)).toEqual(['amended', 'withdrawn']);
      expect(list.body[1].withdrawal).toEqual({ at: '2026-03-20T08:25:00.000Z', signerName: 'Rosa Reyes', reason });

      // still downloadable, marked withdrawn on every page
      const pdf = await certificate(clientA.http);
      expect(pdf.status).toBe(200);
      const text = await pdfText(pdf.bytes);
      expect(text).toContain('WITHDRAWN on 2026-03-20: this report is no longer valid.');
      expect(text).toContain(`Reason: ${reason}`);
      expect(text).toContain('Withdrawn by Rosa Reyes, 2026-03-20 08:25 UTC');
      expect(text).toMatch(new RegExp(`Report ${r2}\\s+WITHDRAWN\\s+Page 1 of`));
      expect(text).toContain('Not detected');
      expect((await certificate(staff.http)).bytes.equals(pdf.bytes)).toBe(true);

      const mail = await app.mailbox.waitFor(clientA.user.email, (m) => m.subject.includes(`certificate ${r2} withdrawn`), { after: mark });
      expect(mail.text).toContain(`Reason: ${reason}`);
      const audit = await app.db('audit_log').where({ request_id: requestId, action: 'report.withdraw' }).first('actor_user_id', 'details');
      expect(Number(audit.actor_user_id)).toBe(staff.user.id);
      expect(JSON.parse(audit.details)).toEqual({ reportNumber: r2, reason, meaning: 'Report withdrawn' });

      const again = await withdraw(staff.http, r2, { reason, password: TEST_PASSWORD });
      expect(again.status).toBe(409);
      expect(again.body.message).toBe(`Report ${r2} has already been withdrawn.`);
    });
  });

  it('limits verification look-ups per address', async () => {
    const anonymous = app.anonymous();
    await app.db('rate_limits').where('key', 'like', 'verify:%').delete();
    const audited = await app.db('audit_log').where({ action: 'report.verify' }).count({ n: '*' });
    let status = 200;
    let calls = 0;
    for (; calls <= LIMITS.verify.perIp.max && status !== 429; calls += 1) status = (await anonymous.get('/verify/AAAAAAAAAAAAAAAAAAAAAAAA')).status;
    expect(status).toBe(429);
    expect(calls).toBe(LIMITS.verify.perIp.max + 1);
    // A real certificate is refused too once the address's allowance is spent, and nothing is audited.
    const refused = await anonymous.get(`/verify/${await tokenOf(1)}`);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Too many verification requests/);
    expect(await app.db('audit_log').where({ action: 'report.verify' }).count({ n: '*' })).toEqual(audited);
  });
});
