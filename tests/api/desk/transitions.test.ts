import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertRequests, type RequestSeed } from '../../../fixtures/requests.js';
import type { User } from '../../../server/services/users.js';
import { callStatements } from '../../helpers/callStatements.js';
import type { HttpClient } from '../../helpers/httpClient.js';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';

describe(`desk transitions (${databaseKind()})`, () => {
  let app: TestApp;
  let staff: { user: User; http: HttpClient };
  let client: User;

  const START = '2026-03-16T09:00:00.000Z';

  beforeAll(async () => {
    app = await startTestApp();
    app.clock.set(START);
    staff = await app.signedIn('staff');
    client = await app.createUser('client');
  });
  beforeEach(() => app.clock.set(START));
  afterAll(() => app?.close());

  /** A staff member signed in at `iso` (moving the clock ends older sessions). Tests that count use years of their own. */
  const staffAt = async (iso: string) => {
    app.clock.set(iso);
    return app.signedIn('staff');
  };

  const seed = async (seeds: Partial<RequestSeed>[]) =>
    insertRequests(app.db, seeds.map((s) => ({ clientUserId: client.id, tests: ['eColi'], ...s })));
  const one = async (s: Partial<RequestSeed> = {}) => (await seed([s]))[0].requestId;
  const statusOf = async (requestId: number) => (await app.db('requests').where('id', requestId).first('status')).status;

  describe('approve', () => {
    it('gives the next control number of the year, plans the analyses, audits and e-mails the client', async () => {
      const staff = await staffAt('2031-05-04T10:00:00.000Z');
      const requestId = await one({ tests: ['eColi', 'betaLactams', 'dog'], samples: ['Beef', 'Pork'] });

      const res = await staff.http.put(`/requests/approve/${requestId}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ requestId, requestStatus: 'FOR_TESTING', controlNumber: '2031-0001' });

      const row = await app.db('requests').where('id', requestId).first();
      expect(row).toMatchObject({ status: 'FOR_TESTING', control_number: '2031-0001', approved_at: '2031-05-04T10:00:00.000Z' });
      expect(Number(row.approved_by)).toBe(staff.user.id);
      const analyses = await app.db('analyses').where('request_id', requestId).select('test_code', 'value', 'remark');
      expect(analyses).toHaveLength(6); // 2 samples x 3 tests, empty
      expect(analyses.every((a) => a.value === null && a.remark === null)).toBe(true);
      const audit = await app.db('audit_log').where({ request_id: requestId, action: 'request.approve' }).first();
      expect(Number(audit.actor_user_id)).toBe(staff.user.id);
      expect(audit.ip).toMatch(/127\.0\.0\.1/);
      expect(JSON.parse(audit.details)).toMatchObject({ before: { status: 'PENDING_REVIEW' }, after: { status: 'FOR_TESTING', controlNumber: '2031-0001' } });

      const mail = await app.mailbox.waitFor(client.email, (m) => m.text.includes('2031-0001'));
      expect(mail.subject).toContain('approved');
      expect(mail.text).toContain('Control Number: 2031-0001');

      // the control number screens read it back as plain text
      const ctrl = await staff.http.get(`/requests/ctrlnumber/${requestId}`);
      expect(ctrl.status).toBe(200);
      expect(ctrl.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(ctrl.text).toBe('2031-0001');
      const last = await staff.http.get('/requests/last-approved');
      expect(last.text).toBe('2031-0001');

      // numbering continues within the year and restarts with the next one
      const next = await one();
      expect((await staff.http.put(`/requests/approve/${next}`)).body.controlNumber).toBe('2031-0002');
      expect((await staff.http.get('/requests/last-approved')).text).toBe('2031-0002');
      app.clock.set('2031-12-31T23:50:00.000Z');
      const nightShift = await app.signedIn('staff');
      app.clock.set('2032-01-01T00:10:00.000Z');
      const nextYear = await one();
      expect((await nightShift.http.put(`/requests/approve/${nextYear}`)).body.controlNumber).toBe('2032-0001');
      expect((await nightShift.http.get('/requests/last-approved')).text).toBe('2032-0001');

    });

    it('refuses to approve twice, with the reason', async () => {
      const requestId = await one();
      expect((await staff.http.put(`/requests/approve/${requestId}`)).status).toBe(200);
      const again = await staff.http.put(`/requests/approve/${requestId}`);
      expect(again.status).toBe(409);
      expect(again.body.message).toBe('Cannot approve a request that is FOR TESTING; only a request that is PENDING REVIEW can be.');
    });

    it('20 approvals at once give 20 distinct consecutive control numbers', async () => {
      const staff = await staffAt('2040-02-02T08:00:00.000Z');
      const ids = (await seed(Array.from({ length: 20 }, () => ({})))).map((s) => s.requestId);
      const answers = await Promise.all(ids.map((id) => staff.http.put(`/requests/approve/${id}`)));
      expect(answers.map((a) => a.status)).toEqual(ids.map(() => 200));
      const numbers = answers.map((a) => a.body.controlNumber as string).sort();
      expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => `2040-${String(i + 1).padStart(4, '0')}`));
      const stored = await app.db('requests').whereIn('id', ids).pluck('control_number');
      expect(new Set(stored).size).toBe(20);
    });

    it('the same request approved several times at once is approved once, without losing a number', async () => {
      const staff = await staffAt('2041-02-02T08:00:00.000Z');
      const requestId = await one({ samples: ['A', 'B'] });
      const answers = await Promise.all(Array.from({ length: 5 }, () => staff.http.put(`/requests/approve/${requestId}`)));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 409)).toHaveLength(4);
      expect(Number((await app.db('analyses').where('request_id', requestId).count({ n: '*' }))[0].n)).toBe(2);
      const next = await one();
      expect((await staff.http.put(`/requests/approve/${next}`)).body.controlNumber).toBe('2041-0002');
    });

    // SQLite answers in this process, where a statement costs no round trip.
    if (databaseKind() === 'postgres') {
      it('writes an approval as one statement after two reads, the number filled into its audit entry and mail', async () => {
        const staff = await staffAt('2043-03-03T08:00:00.000Z');
        const requestId = await one({ samples: ['A', 'B'], tests: ['eColi', 'dog'] });
        const approval = await callStatements(app.db, async () => expect((await staff.http.put(`/requests/approve/${requestId}`)).body.controlNumber).toBe('2043-0001'));
        expect(approval).toHaveLength(3);
        expect(approval[2]).toMatch(/^with n as \(insert into "control_number_counters".*update "requests".*insert into "analyses".*insert into "audit_log".*insert into "outbox"/);
        const audit = await app.db('audit_log').where({ request_id: requestId, action: 'request.approve' }).first('details');
        expect(JSON.parse(audit.details).after).toEqual({ status: 'FOR_TESTING', controlNumber: '2043-0001' });
        const [mail] = await app.db('outbox').where('request_id', requestId).select('subject', 'text_body', 'html_body', 'state');
        expect(mail.subject).toContain('2043-0001');
        expect(`${mail.subject} ${mail.text_body} ${mail.html_body}`).not.toContain('~control-number');
        expect(Number((await app.db('analyses').where('request_id', requestId).count({ n: '*' }))[0].n)).toBe(4);
      });
    }

    // A transaction held open on PostgreSQL's connection pool: SQLite's one writer would wait for it.
    if (databaseKind() === 'postgres') {
      it('an approval that finds the request rejected meanwhile takes no number and writes nothing', async () => {
        const staff = await staffAt('2044-04-04T08:00:00.000Z');
        const requestId = await one({ samples: ['A'] });
        // The rejection holds the request's row while the approval, which read it still pending, waits.
        const rejecting = await app.db.transaction();
        await rejecting('requests').where('id', requestId).update({ status: 'REJECTED' });
        const approving = staff.http.put(`/requests/approve/${requestId}`);
        const waiting = async () => (await app.db.raw("select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and query like 'with n as%'")).rows[0].n > 0;
        for (let i = 0; i < 200 && !(await waiting()); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
        await rejecting.commit();
        const res = await approving;
        expect(res.status).toBe(409);
        expect(res.body.message).toBe('Cannot approve a request that is REJECTED; only a request that is PENDING REVIEW can be.');
        expect(await app.db('control_number_counters').where('year', 2044).first()).toBeUndefined();
        expect(await app.db('analyses').where('request_id', requestId).pluck('id')).toEqual([]);
        expect(await app.db('audit_log').where({ request_id: requestId, action: 'request.approve' }).pluck('id')).toEqual([]);
        expect(await app.db('outbox').where('request_id', requestId).pluck('id')).toEqual([]);
      });
    }

    it('keeps every digit of a number past 9,999', async () => {
      const staff = await staffAt('2042-06-01T08:00:00.000Z');
      await app.db('control_number_counters').insert({ year: 2042, last_value: 9998 });
      const [first, second] = (await seed([{}, {}])).map((s) => s.requestId);
      expect((await staff.http.put(`/requests/approve/${first}`)).body.controlNumber).toBe('2042-9999');
      expect((await staff.http.put(`/requests/approve/${second}`)).body.controlNumber).toBe('2042-10000');
      expect((await app.db('requests').where('id', second).first('control_number')).control_number).toBe('2042-10000');
    });

    it('answers 404 for an unknown request and 400 for an id that is not one', async () => {
      const missing = await staff.http.put('/requests/approve/999999');
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe('There is no request 999999.');
      const bad = await staff.http.put('/requests/approve/abc');
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain('requestId');
      expect((await staff.http.put('/requests/approve/99999999999')).status).toBe(400);
    });
  });

  describe('createresult', () => {
    it('is accepted after approval, any number of times, and refused before it', async () => {
      const requestId = await one();
      const body = { testerId: staff.user.id, testerUsername: 'staff', microbioTestResults: [], chemElisaTestResults: [], chemMicrobialTestResults: [], molBioTestResults: [] };
      const early = await staff.http.post(`/createresult/${requestId}`, body);
      expect(early.status).toBe(409);
      expect(early.body.message).toBe('The result record is created when the request is approved; approve it first.');
      await staff.http.put(`/requests/approve/${requestId}`);
      for (let i = 0; i < 2; i += 1) {
        const res = await staff.http.post(`/createresult/${requestId}`, body);
        expect(res.status).toBe(200);
      }
      expect(Number((await app.db('analyses').where('request_id', requestId).count({ n: '*' }))[0].n)).toBe(1);
      const bad = await staff.http.post(`/createresult/${requestId}`, { ...body, testerId: 'x', microbioTestResults: [1] });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain('testerId');
      expect(bad.body.message).toContain('microbioTestResults');
    });
  });

  describe('reject', () => {
    it('rejects a pending request and e-mails the client', async () => {
      const requestId = await one();
      const res = await staff.http.put(`/requests/reject/${requestId}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ requestId, requestStatus: 'REJECTED' });
      const row = await app.db('requests').where('id', requestId).first('rejected_by', 'control_number');
      expect(Number(row.rejected_by)).toBe(staff.user.id);
      expect(row.control_number).toBeNull();
      const mail = await app.mailbox.waitFor(client.email, (m) => m.subject.includes('rejected') && m.text.includes(`request ${requestId})`));
      expect(mail.text).toContain('has been rejected');
    });

    it('rejects a request awaiting release', async () => {
      const requestId = await one({ status: 'FOR_RELEASE' });
      expect((await staff.http.put(`/requests/reject/${requestId}`)).status).toBe(200);
      expect(await statusOf(requestId)).toBe('REJECTED');
    });

    it('refuses to reject a released or testing request', async () => {
      const released = await one({ status: 'RELEASED' });
      const res = await staff.http.put(`/requests/reject/${released}`);
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('Cannot reject a request that is RELEASED; only a request that is PENDING REVIEW or FOR RELEASE can be.');
      const testing = await one({ status: 'FOR_TESTING' });
      expect((await staff.http.put(`/requests/reject/${testing}`)).status).toBe(409);
      expect(await statusOf(released)).toBe('RELEASED');
    });
  });

  describe('release', () => {
    it('releases a complete request and e-mails the client', async () => {
      const [{ requestId, controlNumber }] = await seed([{ status: 'FOR_RELEASE' }]);
      const res = await staff.http.put(`/requests/approveRelease/${requestId}`, { password: TEST_PASSWORD });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ requestId, requestStatus: 'RELEASED', reportNumber: `${controlNumber}-R1` });
      const row = await app.db('requests').where('id', requestId).first('released_by', 'released_at');
      expect(Number(row.released_by)).toBe(staff.user.id);
      const mail = await app.mailbox.waitFor(client.email, (m) => m.subject.includes(`results released for ${controlNumber}`));
      expect(mail.text).toContain('have been released');
      expect(await app.db('audit_log').where({ request_id: requestId, action: 'request.release' }).first()).toBeTruthy();
    });

    it('refuses to release an incomplete request or one released already', async () => {
      const testing = await one({ status: 'FOR_TESTING' });
      const res = await staff.http.put(`/requests/approveRelease/${testing}`, { password: TEST_PASSWORD });
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('Cannot release a request that is FOR TESTING; only a request that is FOR RELEASE can be.');
      const released = await one({ status: 'RELEASED' });
      expect((await staff.http.put(`/requests/approveRelease/${released}`, { password: TEST_PASSWORD })).status).toBe(409);
      const pending = await one();
      expect((await staff.http.put(`/requests/approveRelease/${pending}`, { password: TEST_PASSWORD })).status).toBe(409);
      expect(await statusOf(testing)).toBe('FOR_TESTING');
    });
  });

  describe('control numbers', () => {
    it('answers 404 with a message for a request without one, and for a staff member who approved nothing', async () => {
      const requestId = await one();
      const res = await staff.http.get(`/requests/ctrlnumber/${requestId}`);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(`Request ${requestId} has no control number yet: it has not been approved.`);
      const newcomer = await app.signedIn('staff');
      const none = await newcomer.http.get('/requests/last-approved');
      expect(none.status).toBe(404);
      expect(none.body.message).toBe('You have not approved any request yet.');
    });
  });
});
