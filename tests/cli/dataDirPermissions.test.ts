// The data directory holds the database, its backups, the secret and mail with live codes: after a
// day of use every file in it is owner-only (0600) and every directory too (0700). The processes run
// under umask 022, the usual default, so the modes are the product's doing, not the shell's.
// Needs `npm run build` first, like the other tests of bin/labctl.
import fs from 'node:fs';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSubmitPayload } from '../../server/domain/requestPayload.js';
import type { RequestDetail } from '../../server/domain/requestShape.js';
import { HttpClient } from '../helpers/httpClient.js';
import { LABCTL, removeDir, tempDataDir } from './labctl.js';

const PASSWORD = 'demo-password';

/** Runs bin/labctl under umask 022 on `dataDir`, with mail to the outbox. */
const labctlUnderUmask = (args: string[], dataDir: string) =>
  execa('sh', ['-c', 'umask 022 && exec "$@"', 'sh', process.execPath, LABCTL, ...args], {
    env: { DATA_DIR: dataDir, DATABASE_URL: '', SMTP_URL: '', LOG_LEVEL: 'error' },
    reject: false,
  });

/** Every file not 0600 and every directory not 0700 under `dir` (itself included), with its mode. */
function offenders(dir: string): string[] {
  const found: string[] = [];
  const check = (file: string) => {
    const stat = fs.lstatSync(file);
    const mode = stat.mode & 0o777;
    const wanted = stat.isDirectory() ? 0o700 : 0o600;
    if (mode !== wanted || !(stat.isDirectory() || stat.isFile())) found.push(`${path.relative(dir, file) || '.'} ${mode.toString(8)}`);
  };
  check(dir);
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) check(path.join(entry.parentPath, entry.name));
  return found;
}

/** Polls the outbox until a message to `to` arrives after the `seen` ones; answers its 6-digit code. */
async function mailedCode(outbox: string, to: string, seen: Set<string>): Promise<string> {
  for (;;) {
    const files = fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => f.endsWith('.eml') && !seen.has(f)) : [];
    for (const file of files) {
      const text = fs.readFileSync(path.join(outbox, file), 'utf8');
      const code = /is: (\d{6})/.exec(text)?.[1];
      if (new RegExp(`^To: ${to}$`, 'm').test(text) && code) {
        seen.add(file);
        return code;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50)); // the outbox worker writes soon after the call
  }
}

describe('the data directory after a day of use', () => {
  const cleanup: Array<() => Promise<unknown> | void> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('holds only owner-only files (0600) and directories (0700)', async () => {
    const root = tempDataDir();
    cleanup.push(() => removeDir(root));
    // Not there yet: labctl creates it.
    const dataDir = path.join(root, 'data');
    const outbox = path.join(dataDir, 'outbox');

    // An admin checks the set-up first (it may create the directory and the outbox), then starts the server.
    await labctlUnderUmask(['doctor'], dataDir);
    const server: ResultPromise = labctlUnderUmask(['serve', '--port', '0', '--host', '127.0.0.1', '--demo'], dataDir);
    cleanup.push(async () => {
      server.kill('SIGKILL');
      await server;
    });
    const url = await new Promise<string>((resolve, reject) => {
      let text = '';
      server.stdout!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const port = /Listening on http:\/\/[^:]+:(\d+)/.exec(text)?.[1];
        if (port) resolve(`http://127.0.0.1:${port}`);
      });
      void server.then((result) => reject(new Error(`labctl serve ended: ${String(result.stderr)}`)));
    });

    const seen = new Set<string>();
    const signIn = async (email: string) => {
      const http = new HttpClient(url);
      expect((await http.post('/login', { identifier: email, password: PASSWORD })).status).toBe(200);
      const verified = await http.post('/verify-otp', { username: email, otp: await mailedCode(outbox, email, seen) });
      expect(verified.status).toBe(200);
      return { http, userId: Number(verified.text.split('/')[1]) };
    };

    // A client submits a request for E. coli on two samples.
    const client = await signIn('client@demo.lab');
    const payload = buildSubmitPayload(
      {
        representativeName: 'Day of use', contactNumber: '639171234567', emailAddress: '', companyName: '', clientClassification: 'Importer', ltoNumber: '',
        testingPurpose: 'Local_Trade', otherTestingPurpose: '', sampleCategory: 'Walk-in', lotBatchNo: 'LOT-PERM', sampleSource: '', productionDate: '',
        expiryDate: '', samplingDate: '', samplerName: '', samples: ['Beef loin', 'Pork belly'], tests: ['eColi'], gramPositiveAst: '', gramNegativeAst: '',
      },
      new Date(),
    );
    const submitted = await client.http.post(`/requests/submitrequest/${client.userId}`, payload);
    expect(submitted.status, submitted.text).toBe(201);
    const { requestId } = submitted.body as { requestId: number };

    // Staff approve it, the tester saves the results, staff release them with a signature.
    const staff = await signIn('staff@demo.lab');
    expect((await staff.http.put(`/requests/approve/${requestId}`)).status).toBe(200);
    const tester = await signIn('microbiotester@demo.lab');
    const { samples } = (await staff.http.get<RequestDetail>(`/requests/detail/${requestId}`)).body;
    const today = new Date().toISOString().slice(0, 10);
    const entries = samples.map((s) => ({ sampleId: s.sampleId, testCode: 'eColi', value: 'Not detected', remark: 'negative', analysisDate: today }));
    const saved = await tester.http.put(`/results/request/${requestId}`, { entries });
    expect(saved.status, saved.text).toBe(200);
    expect((saved.body as { requestStatus: string }).requestStatus).toBe('FOR_RELEASE');
    const released = await staff.http.put(`/requests/approveRelease/${requestId}`, { password: PASSWORD });
    expect(released.status, released.text).toBe(200);

    // The client downloads the certificate, staff print the labels, and an admin takes a backup.
    const certificate = await client.http.get(`/requests/${requestId}/certificate.pdf`);
    expect(certificate.status).toBe(200);
    expect(certificate.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await staff.http.get(`/requests/labels/${requestId}`)).status).toBe(200);
    const backup = await labctlUnderUmask(['backup'], dataDir);
    expect(backup.exitCode, String(backup.stderr)).toBe(0);

    // What a day leaves behind, the server still running (its marker, the write-ahead log), then stopped.
    const names = fs.readdirSync(dataDir, { recursive: true }).map(String);
    expect(names).toEqual(expect.arrayContaining(['lab.sqlite', 'lab.sqlite-wal', 'lab.sqlite-shm', 'outbox', 'backups']));
    expect(names.some((n) => n.startsWith('lab.sqlite.serving-'))).toBe(true);
    expect(names.filter((n) => n.endsWith('.eml')).length).toBeGreaterThanOrEqual(3);
    expect(offenders(dataDir), 'not owner-only while the server runs').toEqual([]);
    server.kill('SIGINT');
    expect((await server).exitCode).toBe(0);
    expect(offenders(dataDir), 'not owner-only once the server stopped').toEqual([]);

    // Stopped, the database is restored from a copy of the backup brought from elsewhere, readable by
    // all there; the database it replaces is kept as a backup.
    const copy = path.join(root, 'brought.sqlite');
    fs.copyFileSync(String(backup.stdout).trim(), copy);
    fs.chmodSync(copy, 0o644);
    const restored = await labctlUnderUmask(['restore', copy, '--yes'], dataDir);
    expect(restored.exitCode, String(restored.stderr)).toBe(0);
    expect(fs.readdirSync(path.join(dataDir, 'backups'))).toHaveLength(2);
    expect(offenders(dataDir), 'not owner-only after a restore').toEqual([]);
  }, 120_000);
});
