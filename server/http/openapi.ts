// The API reference: an OpenAPI 3.1 document generated (zod-openapi) from the declarations the
// routers were built with (route.ts), so every mounted call is in it with the zod schemas that
// validate its input and describe its answers. Built once, on the first call for it, and served at
// GET /openapi.json, with a plain HTML rendering at GET /api-docs (no script, so the strict CSP holds).
import Router from '@koa/router';
import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import { IdSchema, MAX_ID } from '../domain/ids.js';
import type { AppRouter, AppState } from './context.js';
import { ErrorBody, json, route, routeDocs, type ErrorStatus, type Reply, type ReplyHeader, type RouteDoc } from './route.js';

/** A mounted call: method and path as declared (`/requests/approve/:requestId`). */
export interface MountedRoute {
  method: string;
  path: string;
  params: string[];
}

export function mountedRoutes(routers: AppRouter[]): MountedRoute[] {
  return routers.flatMap((router) =>
    router.stack.flatMap((layer) =>
      layer.methods
        .filter((method) => method !== 'HEAD')
        .map((method) => ({ method, path: String(layer.path), params: layer.paramNames.map((p) => String(p.name)) })),
    ),
  );
}

/** What each refusal means; every call may answer 400, 414 and 431 (edge middleware), see errorsOf. */
const ERROR_MEANING: Record<ErrorStatus | 400 | 413 | 414 | 415 | 431, string> = {
  400: 'The input is not valid (each wrong field named), or the body could not be read.',
  401: 'Not signed in (or, for a login call, the credentials or code are wrong).',
  403: 'Not allowed for this user (or, for a change, sent from another site).',
  404: 'No such record.',
  409: 'Not possible in the current state of the record.',
  413: 'The body is too large.',
  414: 'The address is too long.',
  415: 'The body is neither JSON nor a form.',
  429: 'Too many attempts; try again later.',
  431: 'The request headers are too large.',
  503: 'Not ready to serve.',
};

/** The `{ "message" }` statuses of a call: its own, and those of the middleware every call passes. */
function errorsOf(doc: RouteDoc): (keyof typeof ERROR_MEANING)[] {
  const statuses = new Set<keyof typeof ERROR_MEANING>([400, 414, 431, ...(doc.errors ?? [])]);
  if (!doc.open) statuses.add(401);
  // A change from another site is refused (origin.ts); a body may be too large or of another type (body.ts).
  if (doc.method !== 'get') statuses.add(403).add(413).add(415);
  return [...statuses].sort();
}

const HEADERS: Record<ReplyHeader, z.ZodType> = {
  'X-Total-Count': z.string().regex(/^\d+$/).meta({ description: 'Rows in the whole list.' }),
  Link: z.string().optional().meta({ description: 'While rows remain: `<same call for the next page>; rel="next"` (RFC 8288).' }),
  'Content-Disposition': z.string().optional().meta({ description: 'A download: the file name to save it under.' }),
};

/** The example of a JSON answer: the reply's own, else its schema's (a list: of one row). */
function exampleOf(reply: Reply): unknown {
  if (reply.example !== undefined) return reply.example;
  if (!reply.schema) return undefined;
  const own = z.globalRegistry.get(reply.schema)?.example;
  if (own !== undefined) return own;
  if (reply.schema instanceof z.ZodArray) return [z.globalRegistry.get(reply.schema.element as z.ZodType)?.example].filter((e) => e !== undefined);
  return undefined;
}

function content(reply: Reply) {
  const example = exampleOf(reply);
  return { [reply.type!]: { schema: reply.schema ?? z.string().meta({ format: 'binary' }), ...(example !== undefined ? { example } : {}) } };
}

function response(replies: Reply | readonly Reply[]) {
  const all: readonly Reply[] = Array.isArray(replies) ? replies : [replies];
  const headers = [...new Set(all.flatMap((reply) => reply.headers ?? []))];
  const typed = all.filter((reply) => reply.type);
  return {
    description: all.map((reply) => reply.description).join(' Or: '),
    ...(headers.length ? { headers: z.object(Object.fromEntries(headers.map((name) => [name, HEADERS[name]]))) } : {}),
    ...(typed.length ? { content: Object.assign({}, ...typed.map(content)) } : {}),
  };
}

const operationId = (doc: RouteDoc) =>
  doc.method +
  doc.path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');

function operation(doc: RouteDoc): ZodOpenApiOperationObject {
  const responses: ZodOpenApiResponsesObject = {};
  for (const [status, reply] of Object.entries(doc.responses)) responses[status as `${1 | 2 | 3 | 4 | 5}${string}`] = response(reply!);
  for (const status of errorsOf(doc)) {
    responses[`${status}`] = { description: ERROR_MEANING[status], content: { 'application/json': { schema: ErrorBody } } };
  }
  const group = doc.path.split('/').find((part) => part && !part.startsWith(':') && part !== 'api') ?? 'root';
  return {
    operationId: operationId(doc),
    summary: doc.summary,
    tags: [TAG_OF[group] ?? 'Service'],
    ...(doc.open ? { security: [] } : {}),
    ...(doc.params || doc.query ? { requestParams: { ...(doc.params ? { path: doc.params } : {}), ...(doc.query ? { query: doc.query } : {}) } } : {}),
    ...(doc.body ? { requestBody: { required: true, content: { 'application/json': { schema: doc.body } } } } : {}),
    responses,
  };
}

/** The first path segment of a call names its tag. */
const TAG_OF: Record<string, string> = {
  login: 'Accounts',
  'verify-otp': 'Accounts',
  'resend-code': 'Accounts',
  me: 'Accounts',
  logout: 'Accounts',
  'check-user': 'Accounts',
  'verify-otp-password': 'Accounts',
  'change-password': 'Accounts',
  clients: 'Accounts',
  clientverify: 'Accounts',
  clientview: 'Accounts',
  requests: 'Requests',
  request: 'Requests',
  createresult: 'Requests',
  results: 'Results',
  getResult: 'Results',
  microbioTestResults: 'Results',
  chemElisaTestResults: 'Results',
  chemMicrobialTestResults: 'Results',
  molBioTestResults: 'Results',
  chemTestElisaResults: 'Results',
  reports: 'Reports',
  certificates: 'Certificates',
  verify: 'Certificates',
  audit: 'Audit',
};

const TAGS = [
  { name: 'Accounts', description: 'Login with an e-mailed code, registration, password reset, profiles (SPEC section 7, Accounts).' },
  { name: 'Requests', description: 'Testing requests: submission, the desk, work queues, traceability (SPEC section 7, Requests).' },
  { name: 'Results', description: 'Results per discipline group and per request (SPEC section 7, Results by tester).' },
  { name: 'Reports', description: 'Monthly positive/negative counts (SPEC section 7, Reports).' },
  { name: 'Certificates', description: 'Certificates of analysis: download, amendments, withdrawals, public verification.' },
  { name: 'Audit', description: 'The append-only audit trail.' },
  { name: 'Service', description: 'Probes and this reference.' },
];

export interface DocumentInfo {
  title: string;
  version: string;
  /** Where the API is served (the configured public address), else relative to the document. */
  serverUrl?: string;
}

/** The OpenAPI document of `routers`' calls; a mounted call without a declaration is a bug, thrown. */
export function openApiDocument(routers: AppRouter[], info: DocumentInfo): ReturnType<typeof createDocument> {
  const docs = new Map(routers.flatMap((router) => routeDocs(router)).map((doc) => [`${doc.method.toUpperCase()} ${doc.path}`, doc]));
  const paths: ZodOpenApiPathsObject = {};
  for (const mounted of mountedRoutes(routers)) {
    const doc = docs.get(`${mounted.method} ${mounted.path}`);
    if (!doc) throw new Error(`${mounted.method} ${mounted.path} is mounted without route(): it has no declaration for the API reference.`);
    const declared = Object.keys(doc.params?.shape ?? {}).sort();
    if (declared.join() !== [...mounted.params].sort().join()) throw new Error(`${mounted.method} ${mounted.path}: params declares ${declared.join(', ') || 'none'}.`);
    const path = mounted.path.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [doc.method]: operation(doc) };
  }
  const document = createDocument({
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: info.version,
      description: 'The REST API of the laboratory portal (SPEC section 7 and DESIGN.md section 6). Errors are JSON {"message"}.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: info.serverUrl ?? '/', description: 'This portal' }],
    tags: TAGS,
    components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'lab_session', description: 'The session cookie that POST /verify-otp sets.' } } },
    security: [{ session: [] }],
    paths,
  }, {
    // An id is read from digits or a number (a preprocess, which JSON Schema cannot say): on the wire it is a whole number.
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema === IdSchema) Object.assign(jsonSchema, { type: 'integer', minimum: 1, maximum: MAX_ID });
    },
  });
  // A path parameter is always required (OpenAPI 3.1 section 4.8.12.1); zod-openapi leaves out `required` for preprocessed ones.
  for (const item of Object.values(document.paths ?? {})) {
    for (const op of Object.values(item as Record<string, { parameters?: { in: string; required?: boolean }[] }>)) {
      for (const parameter of op.parameters ?? []) if (parameter.in === 'path') parameter.required = true;
    }
  }
  return document;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

interface RenderedOperation {
  summary: string;
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: unknown }> }>;
}

const details = (title: string, value: unknown) => `<details><summary>${escapeHtml(title)}</summary><pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre></details>`;

/** One section per call: method, path, who may call it, parameters, body and answers. */
function referencePage(doc: ReturnType<typeof openApiDocument>): string {
  const sections = Object.entries(doc.paths ?? {}).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, RenderedOperation>).map(([method, o]) => {
      const params = o.parameters ?? [];
      const answers = Object.entries(o.responses).map(([status, r]) => `<li><code>${status}</code> ${escapeHtml(r.description)} <small>${Object.keys(r.content ?? {}).join(', ')}</small></li>`);
      const success = Object.entries(o.responses).find(([status]) => status.startsWith('2'))?.[1].content;
      return [
        `<section><h2><code>${method.toUpperCase()} ${escapeHtml(path)}</code></h2>`,
        `<p>${escapeHtml(o.summary)}${o.security ? ' Open to anyone.' : ' Needs a session.'}</p>`,
        params.length ? `<p>Parameters: ${params.map((p) => `<code>${escapeHtml(p.name)}</code> (${p.in}${p.required ? ', required' : ''})`).join(', ')}</p>` : '',
        o.requestBody ? details('JSON body', o.requestBody.content['application/json'].schema) : '',
        `<ul>${answers.join('')}</ul>`,
        success?.['application/json'] ? details('Answer', success['application/json'].schema) : '',
        '</section>',
      ].join('\n');
    }),
  );
  const schemas = doc.components?.schemas ? details('Shared schemas', doc.components.schemas) : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(doc.info.title)}</title></head><body><main><h1>${escapeHtml(doc.info.title)}</h1><p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${doc.openapi}).</p>\n${sections.join('\n')}\n${schemas}</main></body></html>`;
}

/** Serves the reference of `routers` and of itself, built once on first use. */
export function openApiRouter(routers: AppRouter[], info: Omit<DocumentInfo, 'version'>): AppRouter {
  const router = new Router<AppState>();
  let built: { document: ReturnType<typeof openApiDocument>; page: string } | undefined;
  const reference = () => {
    if (!built) {
      const document = openApiDocument([...routers, router], { ...info, version: '1' });
      built = { document, page: referencePage(document) };
    }
    return built;
  };
  const OpenApiDocument = z.looseObject({ openapi: z.literal('3.1.0'), info: z.looseObject({ title: z.string() }), paths: z.record(z.string(), z.unknown()) });
  route(
    router,
    { method: 'get', path: '/openapi.json', open: true, summary: 'This document.', responses: { 200: json('The OpenAPI 3.1 document.', OpenApiDocument, { example: { openapi: '3.1.0', info: { title: 'API' }, paths: {} } }) } },
    (ctx) => {
      ctx.body = reference().document;
    },
  );
  route(
    router,
    {
      method: 'get',
      path: '/api-docs',
      open: true,
      summary: 'This document as a readable page.',
      responses: { 200: { description: 'The reference page (HTML without scripts).', type: 'text/html', schema: z.string(), example: '<!doctype html>...' } },
    },
    (ctx) => {
      ctx.type = 'html';
      ctx.body = reference().page;
    },
  );
  return router;
}
