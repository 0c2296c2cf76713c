import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal, startTestApp, type TestApp, type TestPortal } from '../helpers/testApp.js';
import { databaseKind } from '../helpers/testDatabase.js';
import { insertRequests } from '../../fixtures/requests.js';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as sent, before any decoding. */
  raw: Buffer;
}

/** A GET that keeps the body as it came over the wire (fetch would decode it silently). */
function rawGet(url: string, headers: Record<string, string>): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, raw: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

function decoded(res: RawResponse): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.raw).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(res.raw).toString('utf8');
  expect(encoding).toBeUndefined();
  return res.raw.toString('utf8');
}

describe(`compressed answers (${databaseKind()})`, () => {
  let app: TestApp;
  let cookie: string;
  let portal: TestPortal;
  let portalUrl: string;
  // A built script: one with a .br written beside it at build time, one without.
  const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `"row ${i}"`).join(',')}];\n`;

  beforeAll(async () => {
    app = await startTestApp();
    const staff = await app.signedIn('staff');
    cookie = `lab_session=${staff.http.cookie('lab_session')}`;
    portal = await startPortal(app.deps, { 'plain-abc123.js': script, 'built-abc123.js': script, 'built-abc123.js.br': brotliCompressSync(script) });
    portalUrl = portal.url;
  });
  afterAll(async () => {
    await portal?.close();
    await app?.close();
  });

  describe('an API JSON answer (a monthly report)', () => {
    const report = '/api/reports/microbioreport?year=2025';

    it.each([
      ['br', 'gzip, deflate, br'],
      ['gzip', 'gzip, deflate'],
    ])('comes as %s when the client accepts it (%s)', async (encoding, accept) => {
      const plain = await rawGet(app.url + report, { cookie });
      const res = await rawGet(app.url + report, { cookie, 'accept-encoding': accept });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.raw.length).toBeLessThan(plain.raw.length / 3);
      expect(JSON.parse(decoded(res))).toEqual(JSON.parse(decoded(plain)));
      // The same call again is answered from the read cache: the same bytes, saying the same.
      const again = await rawGet(app.url + report, { cookie, 'accept-encoding': accept });
      expect(again.headers['content-encoding']).toBe(encoding);
      expect(again.headers.vary).toMatch(/accept-encoding/i);
      expect(again.raw.equals(res.raw)).toBe(true);
    });

    it('comes plain to a client that accepts no encoding, still saying it varies', async () => {
      for (const headers of [{ cookie }, { cookie, 'accept-encoding': 'identity' }] as Array<Record<string, string>>) {
        const res = await rawGet(app.url + report, headers);
        expect(res.status).toBe(200);
        expect(res.headers['content-encoding']).toBeUndefined();
        expect(res.headers.vary).toMatch(/accept-encoding/i);
        expect(JSON.parse(res.raw.toString('utf8')).eColiPosNegCountsByMonthAndYear['2025-01']).toEqual({ positive: 0, negative: 0 });
      }
    });

    it('stays plain when too small to gain (a refusal message)', async () => {
      const res = await rawGet(`${app.url}/api/reports/microbioreport?year=2025`, { 'accept-encoding': 'br, gzip' });
      expect(res.status).toBe(401);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(res.raw.toString('utf8')).message).toEqual(expect.any(String));
    });
  });

  describe('a work queue polled often (pending, 40 requests)', () => {
    const pending = '/requests/queue/pending?limit=50';

    beforeAll(async () => {
      const client = await app.createUser('client');
      await insertRequests(app.db, Array.from({ length: 40 }, () => ({ clientUserId: client.id, tests: ['eColi', 'betaLactams'] })));
    });

    it('is sent smaller once it has been sent often, the same JSON (compressed again at the best quality)', async () => {
      const first = await rawGet(app.url + pending, { cookie, 'accept-encoding': 'br' });
      expect(first.headers['content-encoding']).toBe('br');
      let later = first;
      // A tenth as many sends as the answer has bytes of JSON (cachedRead.ts), and the time to compress it.
      for (let sends = 0; later.raw.length >= first.raw.length && sends < 5000; sends += 1) {
        later = await rawGet(app.url + pending, { cookie, 'accept-encoding': 'br' });
      }
      expect(later.headers['content-encoding']).toBe('br');
      expect(later.raw.length).toBeLessThan(first.raw.length);
      expect(decoded(later)).toBe(decoded(first));
      expect(JSON.parse(decoded(later))).toHaveLength(40);
    });
  });

  describe('a JS asset', () => {
    it('built with a .br beside it: that file is sent as it is to a brotli client', async () => {
      const res = await rawGet(`${portalUrl}/assets/built-abc123.js`, { 'accept-encoding': 'gzip, deflate, br' });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toContain('javascript');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.raw.equals(fs.readFileSync(path.join(portal.uiDir, 'assets', 'built-abc123.js.br')))).toBe(true);
      expect(decoded(res)).toBe(script);
    });

    it.each([
      ['built-abc123.js', 'gzip'],
      ['plain-abc123.js', 'gzip'],
      ['plain-abc123.js', 'br'],
    ])('%s is compressed on the fly where no prebuilt file fits (%s)', async (file, accept) => {
      const res = await rawGet(`${portalUrl}/assets/${file}`, { 'accept-encoding': accept });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(accept);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.raw.length).toBeLessThan(script.length / 3);
      expect(decoded(res)).toBe(script);
    });

    it.each(['built-abc123.js', 'plain-abc123.js'])('%s comes plain when no encoding is accepted', async (file) => {
      const res = await rawGet(`${portalUrl}/assets/${file}`, {});
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.raw.toString('utf8')).toBe(script);
    });
  });
});
