import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { amendResults } from '../../server/services/certificates/amend.js';
import { TestClock } from '../helpers/testClock.js';
import { databaseKind } from '../helpers/testDatabase.js';
import { labctlOnDatabase, openDemoDatabase, statuses } from './demoDatabase.js';

describe(`labctl requests (${databaseKind()})`, () => {
  const lab = labctlOnDatabase(openDemoDatabase);
  const run = (...args: string[]) => lab.run(args);

  it('lists requests as a plain table, oldest first, filtered by status', async () => {
    const all = await run('requests', 'list');
    expect(all.exitCode).toBe(0);
    const lines = all.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+Control Number\s+Status\s+Submission Date\s+Company\s+Client Classification\s+Tests Selected$/);
    expect(lines).toHaveLength(2 + 8);
    expect(lines[2]).toMatch(/^ 1\s+REJECTED\s+2026-02-28\s+Demo Meat Traders Inc\.\s+Importer\s+Microbiological$/);
    expect(lines[4]).toMatch(/^ 3\s+2026-0002\s+FOR RELEASE\s+2026-03-10 .*Microbiological, Chemical$/);

    const testing = await run('requests', 'list', '--status', 'for-testing');
    expect(testing.stdout.trim().split('\n').slice(2).map((l) => l.split(/\s{2,}/)[1])).toEqual(['2026-0003', '2026-0004', '2026-0005']);
    expect((await run('requests', 'list', '--status', 'RELEASED')).stdout).not.toContain('FOR TESTING');
  });

  it('pages the list with --limit and --offset as the API does, and refuses a page it would refuse (exit 2)', async () => {
    const ids = async (...args: string[]) => JSON.parse((await run('requests', 'list', '--json', ...args)).stdout).map((r: { requestId: number }) => r.requestId);
    const all = await ids();
    expect(all).toHaveLength(8);
    expect(await ids('--limit', '3')).toEqual(all.slice(0, 3));
    expect(await ids('--limit', '3', '--offset', '6')).toEqual(all.slice(6));
    expect(await ids('--offset', '5')).toEqual(all.slice(5));
    expect(await ids('--status', 'for-testing', '--limit', '1', '--offset', '1')).toEqual((await ids('--status', 'for-testing')).slice(1, 2));

    const past = await run('requests', 'list', '--status', 'released', '--offset', '1');
    expect(past.exitCode).toBe(0);
    expect(past.stdout.trim()).toBe('There are no RELEASED requests after the first 1.');

    const bad = await run('requests', 'list', '--limit', '501', '--offset', '-1');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--limit must be at most 500 (got "501"); --offset must not be negative (got "-1").');
    expect(bad.stdout).toBe('');
    expect((await run('requests', 'list', '--limit', '0')).stderr).toContain('--limit must be at least 1 (got "0").');
  });

  it('prints the "as read" shape with --json and refuses an unknown status (exit 2)', async () => {
    const res = await run('requests', 'list', '--status', 'pending review', '--json');
    const list = JSON.parse(res.stdout);
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ requestId: 7, controlNumber: null, requestStatus: 'PENDING_REVIEW', microbio: true, chem: false, eColi: true, tests: ['standardPlateCount', 'salmonellaSp', 'eColi'] });

    const bad = await run('requests', 'list', '--status', 'waiting');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('Unknown status "waiting": use one of PENDING_REVIEW, FOR_TESTING, FOR_RELEASE, RELEASED, REJECTED.');
    expect(bad.stdout).toBe('');
  });

  it('shows one request with samples and results, by control number or id', async () => {
    const res = await run('requests', 'show', '2026-0002');
    expect(res.exitCode).toBe(0);
    expect(res.stdout).toContain('Request 3, Control Number: 2026-0002');
    expect(res.stdout).toMatch(/Status:\s+FOR RELEASE/);
    expect(res.stdout).toMatch(/Purpose of Testing:\s+Export \(OMIC Issuance\)/);
    expect(res.stdout).toMatch(/Completion:\s+Microbiological Completed, Chemical Completed/);
    expect(res.stdout).toMatch(/2\s+Pork belly/);
    expect(res.stdout).toMatch(/1\s+Standard\/Aerobic Plate Count\s+3\.2 x 10\^4 CFU\/g\s+negative\s+2026-03-14/);
    // One colour language: a positive reads as a warning with a sign, a negative plainly.
    expect((await run('requests', 'show', '2026-0001')).stdout).toMatch(/Horse DNA detected\s+⚠ positive/);

    const json = JSON.parse((await run('requests', 'show', '3', '--json')).stdout);
    expect(json).toMatchObject({ requestId: 3, controlNumber: '2026-0002', requestStatus: 'FOR_RELEASE' });
    expect(json.samples.map((s: any) => s.sampleTypeDescription)).toEqual(['Beef loin', 'Pork belly']);
    expect(json.results).toHaveLength(8);
    expect(json.results[0]).toMatchObject({ samplePosition: 1, testCode: 'standardPlateCount', value: '3.2 x 10^4 CFU/g', remark: 'negative', analysisDate: '2026-03-14' });

    const pending = await run('requests', 'show', '7');
    expect(pending.stdout).toContain('No analyses: the request has not been approved.');

    for (const [ref, message] of [['2026-0999', 'No request has control number 2026-0999.'], ['99', 'There is no request 99.']]) {
      const missing = await run('requests', 'show', ref);
      expect(missing.exitCode).toBe(1);
      expect(missing.stderr).toContain(message);
    }
    expect((await run('requests', 'show', 'latest')).exitCode).toBe(2);
  });

  it('refuses a number beyond the largest id as no request id (exit 2), for every command naming a request', async () => {
    const largest = await run('requests', 'show', '2147483647');
    expect(largest.exitCode).toBe(1);
    expect(largest.stderr).toContain('There is no request 2147483647.');
    for (const args of [['show'], ['approve', '--as', 'staff@demo.lab'], ['reject', '--as', 'staff@demo.lab', '--yes'], ['release', '--as', 'staff@demo.lab']]) {
      const [command, ...options] = args;
      const res = await run('requests', command, '2147483648', ...options);
      expect(res.exitCode).toBe(2);
      expect(res.stderr).toContain('"2147483648" is not a request id: ids are whole numbers from 1 to 2147483647.');
      expect(res.stderr).not.toContain('out of range');
    }
    expect((await run('requests', 'show', '99999999999999999999')).exitCode).toBe(2);
  });

  it('approves as a staff member: control number, analyses, audit entry and mail queued to the client', async () => {
    const res = await run('requests', 'approve', '7', '--as', 'staff@demo.lab');
    expect(res.exitCode).toBe(0);
    const controlNumber = res.stdout.match(/^Request 7 approved\. Control Number: (\d{4}-\d{4})$/)?.[1];
    expect(controlNumber).toBeDefined();
    // Queued in the approval's transaction for the server's worker; the command itself sends nothing.
    expect(await lab.database.db('outbox').where('request_id', 7).select('recipient', 'subject', 'state')).toEqual([
      { recipient: 'client@demo.lab', subject: `National Meat Inspection Service: request approved, control number ${controlNumber}`, state: 'pending' },
    ]);

    const request = await lab.database.db('requests').where('id', 7).first();
    expect(request).toMatchObject({ status: 'FOR_TESTING', control_number: controlNumber, approved_by: await lab.database.userId('staff@demo.lab') });
    const analyses = await lab.database.db('analyses').where('request_id', 7).count({ n: '*' });
    expect(Number(analyses[0].n)).toBe(2 * 3);
    const audit = await lab.database.db('audit_log').where({ request_id: 7, action: 'request.approve' }).first();
    expect(audit.actor_user_id).toBe(await lab.database.userId('staff@demo.lab'));

    const json = await run('requests', 'approve', '8', '--as', 'staff@demo.lab', '--json');
    expect(JSON.parse(json.stdout)).toEqual({ requestId: 8, controlNumber: expect.stringMatching(/^\d{4}-\d{4}$/), requestStatus: 'FOR_TESTING' });
  });

  it('explains a refused transition on stderr with exit 1 and changes nothing', async () => {
    const before = await statuses(lab.database.db);
    const approve = await run('requests', 'approve', '2026-0003', '--as', 'staff@demo.lab');
    expect(approve.exitCode).toBe(1);
    expect(approve.stdout).toBe('');
    expect(approve.stderr).toBe('Error: Cannot approve a request that is FOR TESTING; only a request that is PENDING REVIEW can be.');
    const release = await run('requests', 'release', '2026-0001', '--as', 'staff@demo.lab');
    expect(release.stderr).toContain('Cannot release a request that is RELEASED; only a request that is FOR RELEASE can be.');
    const reject = await run('requests', 'reject', '2026-0004', '--as', 'staff@demo.lab', '--yes');
    expect(reject.stderr).toContain('Cannot reject a request that is FOR TESTING; only a request that is PENDING REVIEW or FOR RELEASE can be.');
    expect(await statuses(lab.database.db)).toEqual(before);
  });

  it('acts only as an active staff or admin account', async () => {
    const tester = await run('requests', 'approve', '7', '--as', 'chemtester@demo.lab');
    expect(tester.exitCode).toBe(1);
    expect(tester.stderr).toContain('chemtester@demo.lab is a chemtester account: only staff and admin accounts may approve requests.');

    const unknown = await run('requests', 'release', '2026-0002', '--as', 'nobody@demo.lab');
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('No account has the e-mail or username nobody@demo.lab.');

    await lab.database.db('users').where({ email: 'staff@demo.lab' }).update({ deletion_status: 'DISABLED' });
    const disabled = await run('requests', 'approve', '7', '--as', 'staff@demo.lab');
    expect(disabled.exitCode).toBe(1);
    expect(disabled.stderr).toContain('The account staff@demo.lab is disabled: only active accounts may act.');

    const missing = await run('requests', 'approve', '7');
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("required option '--as <email>' not specified");
    expect((await statuses(lab.database.db))['7']).toBe('PENDING_REVIEW');
  });

  it('rejects only with --yes when there is no terminal to confirm on, with the desk messages', async () => {
    const unconfirmed = await run('requests', 'reject', '7', '--as', 'staff@demo.lab');
    expect(unconfirmed.exitCode).toBe(2);
    expect(unconfirmed.stderr).toContain('Reject request 7 (Demo Meat Traders Inc., PENDING REVIEW)?');
    expect(unconfirmed.stderr).toContain('pass --yes');
    expect((await statuses(lab.database.db))['7']).toBe('PENDING_REVIEW');

    const tooLong = await run('requests', 'reject', '7', '--as', 'staff@demo.lab', '--yes', '--reason', 'x'.repeat(2001));
    expect(tooLong.exitCode).toBe(2);
    expect(tooLong.stderr).toContain('--reason: use at most 2000 characters.');
    expect((await statuses(lab.database.db))['7']).toBe('PENDING_REVIEW');

    const pending = await run('requests', 'reject', '7', '--as', 'staff@demo.lab', '--yes', '--reason', '  Samples arrived thawed  ');
    expect(pending.exitCode).toBe(0);
    expect(pending.stdout).toBe('Request rejected successfully!');
    // The reason reaches the client (a rejection message on the request) and the timeline (the audit entry).
    expect(await lab.database.db('request_messages').where({ request_id: 7, kind: 'rejection' }).pluck('body')).toEqual(['Samples arrived thawed']);
    const [entry] = await lab.database.db('audit_log').where({ action: 'request.reject', request_id: 7 }).pluck('details');
    expect(JSON.parse(entry)).toMatchObject({ reason: 'Samples arrived thawed' });
    const forRelease = await run('requests', 'reject', '2026-0002', '--as', 'staff@demo.lab', '-y');
    expect(forRelease.stdout).toBe('Request has been rejected');
    const after = await statuses(lab.database.db);
    expect([after['7'], after['2026-0002']]).toEqual(['REJECTED', 'REJECTED']);
    const [audit] = await lab.database.db('audit_log').where('action', 'request.reject').count({ n: '*' });
    expect(Number(audit.n)).toBe(2);
  });

  it('releases a complete request and queues the mail to the client', async () => {
    const res = await lab.run(['requests', 'release', '2026-0002', '--as', 'staff@demo.lab', '--password-stdin'], { input: 'demo-password\n' });
    expect(res.exitCode).toBe(0);
    expect(res.stdout).toBe('Request released successfully. Certificate 2026-0002-R1 issued.');
    expect((await statuses(lab.database.db))['2026-0002']).toBe('RELEASED');
    // Queued for the server's worker, which sends all mail; the command wrote no mail file itself.
    expect(await lab.database.db('outbox').where('state', 'pending').pluck('subject')).toEqual([expect.stringContaining('results released for 2026-0002')]);
    expect(fs.existsSync(path.join(lab.dataDir, 'outbox'))).toBe(false);
  });

  it('marks an amended result where it shows the results: the old and new reading, who, when and why', async () => {
    expect((await lab.run(['requests', 'release', '2026-0002', '--as', 'staff@demo.lab', '--password-stdin'], { input: 'demo-password\n' })).exitCode).toBe(0);
    const request = lab.database.requests.find((r) => r.controlNumber === '2026-0002')!;
    const staff = { id: await lab.database.userId('staff@demo.lab'), role: 'staff' as const };
    await amendResults({ db: lab.database.db, clock: new TestClock('2026-03-21T10:00:00.000Z'), labName: 'Lab' }, staff, request.requestId, {
      reason: 'Count read from the wrong plate',
      password: 'demo-password',
      results: [{ sampleId: request.sampleIds[0]!, testCode: 'standardPlateCount', value: '3.3 x 10^4 CFU/g', remark: 'negative', analysisDate: '2026-03-14' }],
    });

    const shown = (await run('requests', 'show', '2026-0002')).stdout;
    expect(shown).toMatch(/1\s+Standard\/Aerobic Plate Count\s+3\.3 x 10\^4 CFU\/g\s+negative\s+2026-03-14\s+✎ 2026-0002-R2/);
    // Only the amended result carries the mark.
    expect(shown.match(/✎ 2026-0002-R2/g)).toHaveLength(1);
    expect(shown).toContain('Amendments');
    expect(shown).toMatch(/1\s+Standard\/Aerobic Plate Count\s+3\.2 x 10\^4 CFU\/g; Negative \(-\); analysed 2026-03-14\s+3\.3 x 10\^4 CFU\/g; Negative \(-\); analysed 2026-03-14\s+2026-0002-R2\s+\S.*\s+2026-03-21\s+Count read from the wrong plate/);
    const json = JSON.parse((await run('requests', 'show', '2026-0002', '--json')).stdout);
    expect(json.amendments).toEqual([expect.objectContaining({
      samplePosition: 1, testCode: 'standardPlateCount', reportNumber: '2026-0002-R2', reason: 'Count read from the wrong plate',
      before: expect.objectContaining({ value: '3.2 x 10^4 CFU/g' }), after: expect.objectContaining({ value: '3.3 x 10^4 CFU/g' }),
    })]);
    // A request never amended shows no mark and no amendments.
    expect((await run('requests', 'show', '2026-0001')).stdout).not.toMatch(/✎|Amendments/);
  });
});
