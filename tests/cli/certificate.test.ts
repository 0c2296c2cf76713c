import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_PUBLIC_URL } from '../../cli/commands/certificate.js';
import { insertRequests } from '../../fixtures/requests.js';
import { pdfText } from '../helpers/pdfText.js';
import { startServe } from '../helpers/serveProcess.js';
import { databaseKind } from '../helpers/testDatabase.js';
import { labctlEnv, labctlOnDatabase, openDemoDatabase, statuses } from './demoDatabase.js';

const PUBLIC_URL = 'https://lab.example.org';

describe(`labctl signed release and certificate (${databaseKind()})`, () => {
  const lab = labctlOnDatabase(openDemoDatabase);
  const release = (stdin?: string) =>
    lab.run(['requests', 'release', '2026-0002', '--as', 'staff@demo.lab', ...(stdin === undefined ? [] : ['--password-stdin'])], stdin === undefined ? {} : { input: stdin });

  it('refuses to release without a terminal or --password-stdin, and with a wrong password', async () => {
    const noTerminal = await release();
    expect(noTerminal.exitCode).toBe(2);
    expect(noTerminal.stderr).toBe('Error: Password of staff@demo.lab (signs the release) needs a terminal to ask on; pass --password-stdin and give it on standard input instead.');
    const wrong = await release('not the password\n');
    expect(wrong.exitCode).toBe(1);
    expect(wrong.stderr).toBe('Error: Your password is incorrect: nothing was released.');
    expect((await statuses(lab.database.db))['2026-0002']).toBe('FOR_RELEASE');
    // Only the demo's released request has its certificate.
    expect(await lab.database.db('reports').pluck('report_number')).toEqual(['2026-0001-R1']);
  });

  it('releases with a signature and writes the certificate, and refuses one for a request without a report', async () => {
    const signed = await release('demo-password\n');
    expect(signed.exitCode).toBe(0);
    expect(signed.stdout).toBe('Request released successfully. Certificate 2026-0002-R1 issued.');
    const report = await lab.database.db('reports').where('report_number', '2026-0002-R1').first('signer_name', 'signature_meaning', 'verification_token');
    expect(report).toMatchObject({ signature_meaning: 'Results reviewed and approved for release' });

    const file = path.join(lab.dataDir, 'coa.pdf');
    const withUrl = { env: { PUBLIC_URL } };
    const written = await lab.run(['certificate', '2026-0002', '--out', file, '--json'], withUrl);
    expect(written.exitCode).toBe(0);
    expect(JSON.parse(written.stdout)).toMatchObject({ reportNumber: '2026-0002-R1', controlNumber: '2026-0002', file });
    const text = await pdfText(file);
    for (const item of ['Certificate of Analysis', 'Report No.: 2026-0002-R1', `Authorized by: ${report.signer_name}`, 'Results relate only to the items tested.', `${PUBLIC_URL}/verify/${report.verification_token}`]) {
      expect(text).toContain(item);
    }
    // the same report gives the same bytes through labctl too
    const copy = path.join(lab.dataDir, 'copy.pdf');
    expect((await lab.run(['certificate', '2026-0002', '--out', copy], withUrl)).stderr).toBe(`Wrote certificate 2026-0002-R1 to ${copy}`);
    expect(fs.readFileSync(copy).equals(fs.readFileSync(file))).toBe(true);

    // A file that exists is never overwritten without --force.
    const refused = await lab.run(['certificate', '2026-0002', '--out', copy], withUrl);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toBe(`Error: ${copy} already exists: pass --force to overwrite it, or choose another file with --out.`);
    fs.writeFileSync(copy, 'keep me');
    expect((await lab.run(['certificate', '2026-0002', '--out', copy], withUrl)).exitCode).toBe(1);
    expect(fs.readFileSync(copy, 'utf8')).toBe('keep me');
    expect((await lab.run(['certificate', '2026-0002', '--out', copy, '--force'], withUrl)).exitCode).toBe(0);
    expect(fs.readFileSync(copy).equals(fs.readFileSync(file))).toBe(true);

    // The demo's released request has its certificate, signed by the demo staff member.
    const demoFile = path.join(lab.dataDir, 'demo.pdf');
    const demo = await lab.run(['certificate', '2026-0001', '--out', demoFile, '--json'], withUrl);
    expect(demo.exitCode).toBe(0);
    expect(JSON.parse(demo.stdout)).toMatchObject({ reportNumber: '2026-0001-R1', controlNumber: '2026-0001' });
    expect(await pdfText(demoFile)).toContain('Authorized by: Rosa Reyes');
    // A request released before certificates existed has none.
    const [old] = await insertRequests(lab.database.db, [{ clientUserId: await lab.database.userId('client@demo.lab'), status: 'RELEASED', submissionDate: '2025-06-02T08:00:00.000Z', tests: ['salmonellaSp'] }]);
    const none = await lab.run(['certificate', old.controlNumber!], withUrl);
    expect(none.exitCode).toBe(1);
    expect(none.stderr).toBe('Error: This request was released before certificates were issued: amend its results to issue one.');
    const open = await lab.run(['certificate', '2026-0003'], withUrl);
    expect(open.exitCode).toBe(1);
    expect(open.stderr).toBe('Error: This request has not been released: its certificate is issued on release.');
    expect((await lab.run(['certificate', '2026-0002', '--version', 'x'])).exitCode).toBe(2);
  }, 240_000);

  /** Starts the built `labctl serve` on the test's database, waits until it listens, and stops it. */
  async function serveOnce(env: Record<string, string>): Promise<void> {
    const { child, url } = await startServe({ env: { DATA_DIR: lab.dataDir, LOG_LEVEL: 'silent', SMTP_URL: '', PUBLIC_URL: '', ...labctlEnv(lab.database), ...env } });
    // Answering a call means it is past start-up, where it handles SIGTERM by stopping cleanly.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    child.kill('SIGTERM');
    expect((await child).exitCode).toBe(0);
  }

  it('prints no QR code for a guessed address: refuses without PUBLIC_URL, and uses the one the running server recorded', async () => {
    expect((await release('demo-password\n')).exitCode).toBe(0);
    const { verification_token: token } = await lab.database.db('reports').where('report_number', '2026-0002-R1').first('verification_token');
    const file = path.join(lab.dataDir, 'coa.pdf');
    const refused = await lab.run(['certificate', '2026-0002', '--out', file]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toBe(`Error: ${NO_PUBLIC_URL}`);
    expect(fs.existsSync(file)).toBe(false);

    // `labctl serve` with PUBLIC_URL records it in the database; labctl without it then prints that address.
    await serveOnce({ PUBLIC_URL: 'https://portal.lab.example' });
    expect((await lab.run(['certificate', '2026-0002', '--out', file])).exitCode).toBe(0);
    const text = await pdfText(file);
    expect(text).toContain(`https://portal.lab.example/verify/${token}`);
    expect(text).not.toContain('localhost');
    // PUBLIC_URL of the command itself wins.
    expect((await lab.run(['certificate', '2026-0002', '--out', file, '--force'], { env: { PUBLIC_URL } })).exitCode).toBe(0);
    expect(await pdfText(file)).toContain(`${PUBLIC_URL}/verify/${token}`);

    // A server started without PUBLIC_URL answers under any Host: nothing recorded is left to print.
    await serveOnce({});
    expect((await lab.run(['certificate', '2026-0002', '--out', file])).stderr).toBe(`Error: ${NO_PUBLIC_URL}`);
  }, 120_000);

  it('withdraws a released report with a reason and a signature; the report stays readable, marked withdrawn', async () => {
    const withdraw = (args: string[], stdin: string) =>
      lab.run(['certificate', 'withdraw', ...args, '--as', 'staff@demo.lab', '--password-stdin'], { input: stdin });
    const reason = 'Wrong sample tested';
    expect((await release('demo-password\n')).exitCode).toBe(0);
    const badNumber = await withdraw(['2026-0002', '--reason', reason], 'demo-password\n');
    expect(badNumber.exitCode).toBe(2);
    expect(badNumber.stderr).toBe('Error: <report> must be a report number such as 2026-0012-R1 (got "2026-0002").');
    expect((await withdraw(['2026-0002-R1'], 'demo-password\n')).exitCode).toBe(2);
    const wrong = await withdraw(['2026-0002-R1', '--reason', reason], 'not the password\n');
    expect(wrong.exitCode).toBe(1);
    expect(wrong.stderr).toBe('Error: Your password is incorrect: nothing was withdrawn.');
    expect(await lab.database.db('report_withdrawals')).toEqual([]);

    const done = await withdraw(['2026-0002-R1', '--reason', reason, '--json'], 'demo-password\n');
    // queued for the server's worker, to the client
    expect(await lab.database.db('outbox').where('subject', 'like', '%withdrawn%').pluck('recipient')).toEqual(['client@demo.lab']);
    expect(done.exitCode).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ reportNumber: '2026-0002-R1', controlNumber: '2026-0002', status: 'withdrawn' });
    const audit = await lab.database.db('audit_log').where('action', 'report.withdraw').first('details');
    expect(JSON.parse(audit.details)).toEqual({ reportNumber: '2026-0002-R1', reason, meaning: 'Report withdrawn' });

    const file = path.join(lab.dataDir, 'withdrawn.pdf');
    expect((await lab.run(['certificate', '2026-0002', '--out', file], { env: { PUBLIC_URL } })).exitCode).toBe(0);
    expect(await pdfText(file)).toContain('WITHDRAWN on');
    const again = await withdraw(['2026-0002-R1', '--reason', reason], 'demo-password\n');
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toBe('Error: Report 2026-0002-R1 has already been withdrawn.');
  }, 240_000);
});
