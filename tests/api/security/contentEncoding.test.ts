// A body whose Content-Encoding is false or unknown is the caller's mistake: a 4xx with a message.
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/testApp.js';
import { databaseKind } from '../../helpers/testDatabase.js';
import { fillPath, mountedRoutes } from '../../helpers/routes.js';

const LOGIN = JSON.stringify({ identifier: 'nobody@example.test', password: 'wrong password' });

describe(`Content-Encoding of request bodies (${databaseKind()})`, () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  const post = (path: string, body: BodyInit, encoding: string) =>
    fetch(app.url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': encoding }, body });

  it.each(['gzip', 'deflate', 'br'])('answers a plain body labelled %s with 400 and a message', async (encoding) => {
    const res = await post('/login', LOGIN, encoding);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'The request body could not be read: it does not match its Content-Encoding.' });
  });

  it('answers an unknown encoding with 415 and a message', async () => {
    const res = await post('/login', LOGIN, 'snappy');
    expect(res.status).toBe(415);
    expect((await res.json()).message).toEqual(expect.any(String));
  });

  it('reads a body that really is gzip', async () => {
    const res = await post('/login', new Blob([new Uint8Array(zlib.gzipSync(LOGIN))]), 'gzip');
    expect(res.status).toBe(401);
  });

  it('never answers a false gzip body with a 5xx, on any call, signed in or not', async () => {
    const { user, http } = await app.signedIn('admin');
    const values = { userId: String(user.id), requestId: '1', sampleId: '1', report: 'microbioreport', reportNumber: '2026-9999-R1', id: '1' };
    const cookie = `lab_session=${http.cookie('lab_session')}`;
    const failures: string[] = [];
    for (const route of mountedRoutes(app.deps).filter((r) => r.method !== 'GET' && r.key !== 'POST /logout')) {
      for (const headers of [{}, { cookie }] as Array<Record<string, string>>) {
        const res = await fetch(app.url + fillPath(route, values), {
          method: route.method,
          headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', ...headers },
          body: '{"a":1}',
        });
        const body = await res.json().catch(() => null);
        if (res.status >= 500 || typeof body?.message !== 'string') failures.push(`${route.key}: ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
