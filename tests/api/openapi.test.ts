import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRouters } from '../../server/app.js';
import Router from '@koa/router';
import type { AppState } from '../../server/http/context.js';
import { mountedRoutes, openApiDocument } from '../../server/http/openapi.js';
import { contractBreach } from '../helpers/contract.js';
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
    expect(approve.parameters).toEqual([{ name: 'requestId', in: 'path', required: true, schema: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } }]);
    const released = doc.paths['/requests/released'].get.parameters.map((p: any) => p.name);
    expect(released).toEqual(expect.arrayContaining(['limit', 'offset']));
  });

  it('documents for every call its success body with an example, its {"message"} errors, security and servers', () => {
    expect(doc.servers).toEqual([{ url: '/', description: 'This portal' }]);
    for (const { method, path, op } of documented()) {
      const name = `${method} ${path}`;
      const statuses = Object.keys(op.responses);
      const success = statuses.filter((s) => s.startsWith('2'));
      expect(success.length, name).toBeGreaterThan(0);
      for (const status of success) {
        for (const [type, media] of Object.entries((op.responses[status].content ?? {}) as Record<string, any>)) {
          if (type !== 'application/pdf') expect(media.example, `${name} ${status} ${type}`).toBeDefined();
        }
      }
      expect(statuses, name).toEqual(expect.arrayContaining(['400', '414', '431', ...(op.security ? [] : ['401'])]));
      for (const status of statuses.filter((s) => s.startsWith('4'))) {
        expect(op.responses[status].content['application/json'].schema, `${name} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
      }
      expect(op.operationId, name).toMatch(/^[a-z]+[A-Za-z0-9]+$/);
    }
  });

  it('refuses to document a call mounted without its declaration', () => {
    const router = new Router<AppState>();
    router.get('/undeclared', (ctx) => {
      ctx.body = {};
    });
    expect(() => openApiDocument([router], { title: 'T', version: '1' })).toThrow('GET /undeclared is mounted without route()');
  });

  it('the contract check refuses an answer the document does not describe', () => {
    expect(contractBreach('GET', '/requests/detail/7', 200, 'application/json', JSON.stringify({ requestId: 7 }))).toMatch(/schema refuses/);
    expect(contractBreach('GET', '/requests/detail/7', 418, 'application/json', '{"message":"teapot"}')).toMatch(/status the document does not list/);
    expect(contractBreach('GET', '/requests/detail/7', 404, 'application/json', '{"error":"gone"}')).toMatch(/schema refuses/);
    expect(contractBreach('GET', '/requests/ctrlnumber/7', 200, 'application/json', '"2026-0001"')).toMatch(/not as text\/plain/);
    expect(contractBreach('POST', '/logout', 204, null, 'bye')).toMatch(/has none/);
    expect(contractBreach('GET', '/me', 200, 'application/json', JSON.stringify({ id: 1, role: 'staff', username: null, email: 'a@b.c', firstName: 'A', lastName: 'B', extra: 1 }))).toMatch(/schema refuses/);
    // What the document describes passes; an address that is no call (the portal's pages) is not checked.
    expect(contractBreach('GET', '/me', 200, 'application/json; charset=utf-8', JSON.stringify({ id: 1, role: 'staff', username: null, email: 'a@b.c', firstName: 'A', lastName: 'B' }))).toBeUndefined();
    expect(contractBreach('GET', '/login-page/not-an-api', 200, 'text/html', '<html>')).toBeUndefined();
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
