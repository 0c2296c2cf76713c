// The API reference: an OpenAPI 3.1 document built from the routers that are mounted (so no call is
// missing) and the zod schemas the calls validate with (z.toJSONSchema, so the document states the
// same rules), served at GET /openapi.json, and a plain HTML rendering of it at GET /api-docs
// (no script, so the strict CSP holds).
import Router from '@koa/router';
import { z } from 'zod';
import { RegistrationSchema } from '../domain/accountRules.js';
import { WithdrawalInput } from '../domain/certificate.js';
import { CompanyAddressInput } from '../domain/clientProfile.js';
import { SubmitRequestPayload } from '../domain/requestPayload.js';
import { ChangePasswordInput, CheckUserInput, EmailCodeInput, LoginInput, ResendCodeInput, VerifyOtpInput } from './accounts/schemas.js';
import type { AppRouter, AppState } from './context.js';
import { PageQuery } from '../domain/paging.js';
import { ReportQuery } from './reports/router.js';
import { MessageInput } from './requests/desk.js';
import { CountsQuery, QueueQuery } from './requests/queue.js';
import { TurnaroundQuery } from './requests/traceability.js';
import { BatchQuery, TemplateQuery } from './results/router.js';

interface OperationDoc {
  summary: string;
  /** Anyone may call it; every other call needs the session cookie. */
  open?: boolean;
  body?: z.ZodType;
  query?: z.ZodType;
}

const RESULTS_READ = 'The results of one discipline group (testers: open requests of their discipline).';
const RESULTS_WRITE = 'Saves the results of one sample in a group (the wide shape of DESIGN.md section 6).';

/** What each call does; keys are `METHOD /path` as the routers declare them. */
const OPERATIONS: Record<string, OperationDoc> = {
  'GET /healthz': { summary: 'The process is alive (no database call).', open: true },
  'GET /readyz': { summary: 'The instance can serve: database reachable, migrations current; 503 with the reason otherwise.', open: true },
  'GET /openapi.json': { summary: 'This document.', open: true },
  'GET /api-docs': { summary: 'This document as a readable page.', open: true },
  'POST /login': { summary: 'Checks the password and e-mails a login code.', open: true, body: LoginInput },
  'POST /verify-otp': { summary: 'Finishes a login with the e-mailed code and opens a session.', open: true, body: VerifyOtpInput },
  'POST /resend-code': { summary: 'Sends a login, registration or reset code again (with a cooldown).', open: true, body: ResendCodeInput },
  'GET /me': { summary: 'The signed-in user.' },
  'POST /logout': { summary: 'Ends the session.', open: true },
  'GET /check-user': { summary: 'Starts a password reset: e-mails a reset code to an active account.', open: true, query: CheckUserInput },
  'POST /verify-otp-password': { summary: 'Checks a reset code and grants a password change.', open: true, body: EmailCodeInput },
  'POST /change-password': { summary: 'Sets a new password with the reset grant.', open: true, body: ChangePasswordInput },
  'POST /clients': { summary: 'Registers a client and e-mails a verification code.', open: true, body: RegistrationSchema },
  'POST /clientverify': { summary: 'Verifies a registration with the e-mailed code.', open: true, body: EmailCodeInput },
  'GET /clientview/:userId': { summary: "A client's profile (the client itself and the desk)." },
  'PUT /clientview/:userId/address': { summary: "Sets the client's own company postal address (printed on certificates); blank removes it.", body: CompanyAddressInput },
  'GET /requests/pending': { summary: 'Requests pending review (desk).' },
  'GET /requests/pendingrequest/:requestId': { summary: 'One request pending review with its samples (desk).' },
  'PUT /requests/approve/:requestId': { summary: 'Approves: next control number, analyses planned, client e-mailed (desk).' },
  'PUT /requests/reject/:requestId': { summary: 'Rejects a request pending review or for release; client e-mailed (desk).' },
  'PUT /requests/approveRelease/:requestId': { summary: 'Releases the results; client e-mailed (desk).' },
  'POST /createresult/:requestId': { summary: 'Compatibility call of SPEC section 7; approval already created the result rows (desk).' },
  'GET /requests/ctrlnumber/:requestId': { summary: 'The control number of a request as text (desk).' },
  'GET /requests/last-approved': { summary: 'The last control number given (desk).' },
  'GET /requests/for-release': { summary: 'Requests whose results are complete (desk; testers for their discipline).', query: PageQuery },
  'GET /requests/released': { summary: 'Released requests, newest first (desk; testers for their discipline).', query: PageQuery },
  'GET /requests/messages/:requestId': { summary: 'The additional-information exchange about a request (desk and owning client).' },
  'POST /requests/messages/:requestId': { summary: 'Asks (desk) or answers (owning client) for additional information.', body: MessageInput },
  'POST /requests/submitrequest/:userId': { summary: 'Submits a testing request (the client itself).', body: SubmitRequestPayload },
  'GET /requests/clientrequest/:userId': { summary: "A client's requests (the client itself and the desk)." },
  'GET /request/:requestId': { summary: 'One request (owning client and the desk).' },
  'GET /requests/detail/:requestId': { summary: 'One request with samples and, once rejected, the reason given (owning client and the desk).' },
  'GET /requests/for-testing': { summary: 'Requests being tested in the caller’s discipline (testers, desk).' },
  'GET /results/template': {
    summary: 'The analyses of a discipline awaiting results (status outstanding, finished or all; one request with request=) as the results import CSV with empty values (staff, the discipline\'s testers).',
    query: TemplateQuery,
  },
  'GET /getResult': { summary: 'The results of several requests at once.', query: BatchQuery },
  'GET /getResult/:requestId': { summary: 'The results of one request (released ones for its client).' },
  'GET /microbioTestResults': { summary: RESULTS_READ },
  'GET /chemElisaTestResults': { summary: RESULTS_READ },
  'GET /chemMicrobialTestResults': { summary: RESULTS_READ },
  'GET /molBioTestResults': { summary: RESULTS_READ },
  'PUT /microbioTestResults/:sampleId': { summary: RESULTS_WRITE },
  'PUT /chemTestElisaResults/:sampleId': { summary: RESULTS_WRITE },
  'PUT /chemMicrobialTestResults/:sampleId': { summary: RESULTS_WRITE },
  'PUT /molBioTestResults/:sampleId': { summary: RESULTS_WRITE },
  'GET /api/reports/years': { summary: 'The years, most recent first, in which the reports the caller reads have data (the year picker of the database screens).' },
  'GET /api/reports/:report': { summary: 'A monthly report of one discipline group for a year.', query: ReportQuery },
  'GET /requests/queue/:name': { summary: 'A work list (pending, for-release, for-testing, released) a keyset page at a time, with search (q), filters (discipline, status, state, since/until days), sorts and a streamed CSV export of the whole filtered list (format=csv).' },
  'GET /requests/queue/client/:userId': { summary: "A client's own requests a keyset page at a time (Track My Request), with search, status filter and sorts.", query: QueueQuery },
  'GET /requests/queue/client/:userId/counts': { summary: "How many of a client's requests are in each status (of those a search finds, with q).", query: CountsQuery },
  'PUT /results/request/:requestId': { summary: "A tester's whole Save of one request of its discipline, in one transaction (all or nothing)." },
  'GET /requests/:requestId/certificate.pdf': { summary: 'The certificate of analysis (PDF) of a released request: its latest report, or ?version=n.' },
  'GET /requests/:requestId/reports': { summary: 'Every report issued for a released request (the release and each amendment).' },
  'POST /requests/:requestId/amendments': { summary: "Amends a released request's results with a reason and the staff member's signature; issues the next report." },
  'POST /certificates/:reportNumber/withdraw': {
    summary: "Withdraws a released report (e.g. 2026-0012-R1) with a reason and the staff member's signature; it stays downloadable, marked withdrawn.",
    body: WithdrawalInput,
  },
  'GET /verify/:token': { summary: 'Public verification of a certificate: report id, control number, issue date and status only.', open: true },
  'POST /requests/receive/:requestId': { summary: 'Records the reception of an approved request’s samples (desk).' },
  'GET /requests/receipt/:requestId': { summary: 'How the samples of a request arrived (the desk and the owning client).' },
  'GET /requests/labels/:requestId': { summary: 'The sample labels of an approved request as a PDF (desk).' },
  'GET /requests/timeline/:requestId': { summary: 'Every event of a request in order (the owning client without lab-only entries).' },
  'GET /requests/turnaround': {
    summary: 'The open requests per discipline, and a keyset page of them by age and due date, late ones first, with X-Total-Count and Link rel="next"; ?format=csv streams every open request (desk).',
    query: TurnaroundQuery,
  },
  'GET /audit': { summary: 'The audit trail filtered by user, request, action and dates, paged; ?format=csv streams the whole filtered trail (desk).' },
};

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

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

const ERROR = { description: 'Refused, with the reason', content: { 'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } } } };

function operation(route: MountedRoute) {
  const doc = OPERATIONS[`${route.method} ${route.path}`];
  const parameters: object[] = route.params.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: name.endsWith('Id') ? { type: 'integer', minimum: 1 } : { type: 'string' },
  }));
  const query = doc?.query ? jsonSchema(doc.query) : undefined;
  for (const [name, schema] of Object.entries((query?.properties ?? {}) as Record<string, object>)) {
    parameters.push({ name, in: 'query', required: (query?.required ?? []).includes(name), schema });
  }
  return {
    summary: doc?.summary ?? 'Not described yet.',
    ...(doc?.open ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(doc?.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(doc.body) } } } } : {}),
    responses: { '200': { description: 'Done' }, '4XX': ERROR },
  };
}

export function openApiDocument(routes: MountedRoute[], info: { title: string; version: string }) {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: { ...info, description: 'The REST API of the laboratory portal (SPEC section 7 and DESIGN.md section 6). Errors are JSON {"message"}.' },
    components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'lab_session' } } },
    security: [{ session: [] }],
    paths,
  };
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** One section per call: method, path, who may call it, parameters and body schema. */
function referencePage(doc: ReturnType<typeof openApiDocument>): string {
  const sections = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const o = op as ReturnType<typeof operation>;
      const params = (o.parameters ?? []) as { name: string; in: string; required: boolean }[];
      return [
        `<section><h2><code>${method.toUpperCase()} ${escapeHtml(path)}</code></h2>`,
        `<p>${escapeHtml(o.summary)}${'security' in o ? ' Open to anyone.' : ' Needs a session.'}</p>`,
        params.length ? `<p>Parameters: ${params.map((p) => `<code>${escapeHtml(p.name)}</code> (${p.in}${p.required ? ', required' : ''})`).join(', ')}</p>` : '',
        o.requestBody ? `<details><summary>JSON body</summary><pre>${escapeHtml(JSON.stringify(o.requestBody.content['application/json'].schema, null, 2))}</pre></details>` : '',
        '</section>',
      ].join('\n');
    }),
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(doc.info.title)}</title></head><body><main><h1>${escapeHtml(doc.info.title)}</h1><p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${doc.openapi}).</p>\n${sections.join('\n')}</main></body></html>`;
}

/** Serves the reference of `routers` and of itself. */
export function openApiRouter(routers: AppRouter[], labName: string): AppRouter {
  const router = new Router<AppState>();
  const document = () => openApiDocument(mountedRoutes([...routers, router]), { title: `${labName} laboratory portal API`, version: '1' });
  router.get('/openapi.json', (ctx) => {
    ctx.body = document();
  });
  router.get('/api-docs', (ctx) => {
    ctx.type = 'html';
    ctx.body = referencePage(document());
  });
  return router;
}
