import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRouters } from '../../server/app.js';
import { mountedRoutes } from '../../server/http/openapi.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { databaseKind } from '../helpers/testDatabase.js';

describe(`OpenAPI reference (${databaseKind()})`, () => {
  let app: TestApp;
  let doc: any;
  beforeAll(async () => {
    app = await startTestApp();
    doc = (await app.anonymous().get('/openapi.json')).body;
  });
  afterAll(() => app?.close());

  const documented = () =>
    Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
    );

  it('is an OpenAPI 3.1 document naming every mounted call, each described', () => {
    expect(doc.openapi).toBe('3.1.0');
    const mounted = mountedRoutes(apiRouters(app.deps)).map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    expect(mounted.length).toBeGreaterThan(40);
    expect(documented().map((d) => `${d.method} ${d.path}`).sort()).toEqual([...new Set(mounted)].sort());
    expect(documented().filter((d) => d.op.summary === 'Not described yet.').map((d) => `${d.method} ${d.path}`)).toEqual([]);
  });

  it('states the rules of the zod schemas the calls validate with', () => {
    const login = doc.paths['/login'].post;
    expect(login.security).toEqual([]);
    expect(login.requestBody.content['application/json'].schema).toMatchObject({ type: 'object', required: expect.arrayContaining(['password']) });
    const approve = doc.paths['/requests/approve/{requestId}'].put;
    expect(approve.security).toBeUndefined();
    expect(approve.parameters).toEqual([{ name: 'requestId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }]);
    const released = doc.paths['/requests/released'].get.parameters.map((p: any) => p.name);
    expect(released).toEqual(expect.arrayContaining(['limit', 'offset']));
  });

  it('every documented call answers (no 404 "No such call" nor 405)', async () => {
    const { http } = await app.signedIn('staff');
    for (const { method, path } of documented()) {
      const url = path.replace(/\{(\w+)\}/g, (_all, name: string) => (name === 'report' ? 'microbio' : '1'));
      const res = await http.request(method, url, method === 'GET' ? undefined : {});
      expect(res.status, `${method} ${url}`).not.toBe(405);
      expect(String(res.body?.message ?? ''), `${method} ${url}`).not.toMatch(/^No such call/);
    }
  });

  it('renders a reference page for staff that the strict CSP allows (no script)', async () => {
    const res = await app.anonymous().get('/api-docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = res.text;
    expect(html).toContain('<code>PUT /requests/approve/{requestId}</code>');
    expect(html).toContain('Approves: next control number');
    expect(html).not.toMatch(/<script/i);
  });
});
