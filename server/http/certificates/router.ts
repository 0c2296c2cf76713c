// Certificates of analysis (ISO/IEC 17025 7.8): the PDF of a released request, its list of issued
// reports, amendments after release, withdrawals, and the public verification of a certificate's QR code.
import Router from '@koa/router';
import { z } from 'zod';
import { AmendmentInput, ReportNumberParam, verificationUrl, WithdrawalInput } from '../../domain/certificate.js';
import { amendResults, reEvaluate } from '../../services/certificates/amend.js';
import { renderCertificate } from '../../services/certificates/pdf.js';
import { listAmendments, listReports, reportForDownload, verifyReport } from '../../services/certificates/reports.js';
import { withdrawReport } from '../../services/certificates/withdraw.js';
import type { DeskDeps } from '../../services/requests/transitions.js';
import { parseInput } from '../../validation.js';
import type { AppContext, AppDeps, AppState } from '../context.js';
import { authorize, requireUser } from '../guards.js';
import { RequestIdParams } from '../requests/client.js';
import { json, pdf, route, type RouteDoc } from '../route.js';
import { ConformityBody } from '../specifications/bodies.js';

const CertificateQuery = z.object({
  version: z.coerce.number('must be a report version').int('must be a whole number').min(1, 'must be 1 or more').max(10_000, 'is too large').optional(),
});

const TokenParams = z.object({ token: z.string().max(200) });
const ReportParams = z.object({ reportNumber: ReportNumberParam });

const REPORT_SUMMARY = {
  reportNumber: '2026-0007-R1',
  version: 1,
  issuedAt: '2026-03-10T09:00:00.000Z',
  signerName: 'Ana Reyes',
  signatureMeaning: 'Released',
  replaces: null,
  amendmentReason: null,
  withdrawal: null,
  status: 'valid',
  changes: [],
};
const ReportStatus = z.enum(['valid', 'amended', 'withdrawn']);
/** A result as a report printed it. */
const ReportedReading = z
  .object({
    value: z.string().nullable(), remark: z.string().nullable(), analysisDate: z.string().nullable(),
    conformity: ConformityBody.optional().meta({ description: 'Issue 26: the statement of conformity, where either report states one.' }),
  })
  .nullable();
const ReportSummaryBody = z
  .object({
    reportNumber: z.string(),
    version: z.number().int(),
    issuedAt: z.string(),
    signerName: z.string(),
    signatureMeaning: z.string(),
    replaces: z.string().nullable(),
    amendmentReason: z.string().nullable(),
    withdrawal: z.object({ at: z.string(), signerName: z.string(), reason: z.string() }).nullable(),
    status: ReportStatus,
    changes: z
      .array(z.object({ samplePosition: z.number().int(), testCode: z.string(), before: ReportedReading, after: ReportedReading }))
      .meta({ description: "An amendment's changed results against the report it replaces (empty for a first issue)." }),
  })
  .meta({ example: REPORT_SUMMARY });
const AMENDMENT_NOTE = {
  samplePosition: 2,
  testCode: 'eColi',
  before: { value: '2.3 x 10^3', remark: 'positive', analysisDate: '2026-03-12' },
  after: { value: 'Not detected', remark: 'negative', analysisDate: '2026-03-12' },
  reportNumber: '2026-0007-R2',
  signerName: 'Ana Reyes',
  issuedAt: '2026-03-11T08:15:00.000Z',
  reason: 'Transcription error in sample 2',
};
const AmendmentNoteBody = z
  .object({
    samplePosition: z.number().int(),
    testCode: z.string(),
    before: ReportedReading,
    after: ReportedReading,
    reportNumber: z.string().meta({ description: 'The report that made the change.' }),
    signerName: z.string(),
    issuedAt: z.string(),
    reason: z.string().nullable(),
  })
  .meta({ example: AMENDMENT_NOTE });
const AmendedBody = z
  .object({ requestId: z.number().int(), reportNumber: z.string(), replaces: z.string() })
  .meta({ example: { requestId: 7, reportNumber: '2026-0007-R2', replaces: '2026-0007-R1' } });
const WithdrawnBody = z
  .object({ reportNumber: z.string(), controlNumber: z.string(), withdrawnAt: z.string(), status: z.literal('withdrawn') })
  .meta({ example: { reportNumber: '2026-0007-R1', controlNumber: '2026-0007', withdrawnAt: '2026-03-12T09:00:00.000Z', status: 'withdrawn' } });
const VerificationBody = z
  .object({ reportNumber: z.string(), controlNumber: z.string(), issueDate: z.string(), status: ReportStatus })
  .meta({ example: { reportNumber: '2026-0007-R1', controlNumber: '2026-0007', issueDate: '2026-03-10', status: 'valid' } });

const CERTIFICATE: RouteDoc = {
  method: 'get',
  path: '/requests/:requestId/certificate.pdf',
  summary: 'The certificate of analysis (PDF) of a released request: its latest report, or ?version=n.',
  params: RequestIdParams,
  query: CertificateQuery,
  responses: { 200: pdf('The certificate.') },
  errors: [403, 404, 409],
};
const REPORTS: RouteDoc = {
  method: 'get',
  path: '/requests/:requestId/reports',
  summary: 'Every report issued for a released request (the release and each amendment).',
  params: RequestIdParams,
  responses: { 200: json('The reports, first issued first.', z.array(ReportSummaryBody)) },
  errors: [403, 404, 409],
};
const AMENDMENTS: RouteDoc = {
  method: 'get',
  path: '/requests/:requestId/amendments',
  summary:
    "A released request's amended results: old and new reading, report, signer, time and reason. The owning client and the desk read every one; a tester of the request's disciplines reads its own discipline's tests only.",
  params: RequestIdParams,
  responses: { 200: json('The amended results, first amendment first.', z.array(AmendmentNoteBody)) },
  errors: [403, 404, 409],
};
const AMEND: RouteDoc = {
  method: 'post',
  path: '/requests/:requestId/amendments',
  summary: "Amends a released request's results with a reason and the staff member's signature; issues the next report.",
  params: RequestIdParams,
  body: AmendmentInput,
  responses: { 201: json('The report issued.', AmendedBody) },
  errors: [403, 404, 409, 429],
};
const ReEvaluateInput = AmendmentInput.pick({ reason: true, password: true });
const RE_EVALUATE: RouteDoc = {
  method: 'post',
  path: '/api/requests/:requestId/re-evaluate',
  summary: "Judges a released request's results against the specifications and decision rule in force now (issue 26): an amendment with a reason and the staff member's signature, issuing the next report; 400 when every decision stands.",
  params: RequestIdParams,
  body: ReEvaluateInput,
  responses: { 201: json('The report issued.', AmendedBody) },
  errors: [403, 404, 409, 429],
};
const WITHDRAW: RouteDoc = {
  method: 'post',
  path: '/certificates/:reportNumber/withdraw',
  summary: "Withdraws a released report (e.g. 2026-0012-R1) with a reason and the staff member's signature; it stays downloadable, marked withdrawn.",
  params: ReportParams,
  body: WithdrawalInput,
  responses: { 200: json('Withdrawn.', WithdrawnBody) },
  errors: [403, 404, 409, 429],
};
const VERIFY: RouteDoc = {
  method: 'get',
  path: '/verify/:token',
  open: true,
  summary: 'Public verification of a certificate (Accept: application/json): report id, control number, issue date and status only. A browser gets the portal page.',
  params: TokenParams,
  responses: {
    200: [json('What the certificate says.', VerificationBody), { description: 'The portal page (a browser asking for HTML).', type: 'text/html', schema: z.string(), example: '<!doctype html>...' }],
  },
  // 503: the portal page is not built (a browser asking for HTML).
  errors: [404, 429, 503],
};

export function certificatesRouter(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  const desk: DeskDeps = { db: deps.db, clock: deps.clock, labName: deps.config.labName, logger: deps.logger };
  const lab = { name: deps.config.labName, shortName: deps.config.labShortName, address: deps.config.labAddress };
  // Where the QR code points: the configured public address, else the address the caller used.
  const baseUrl = (ctx: AppContext) => deps.config.publicUrl ?? `${ctx.protocol}://${ctx.host}`;

  route(router, CERTIFICATE, async (ctx) => {
    const user = requireUser(ctx);
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    const { version } = parseInput(CertificateQuery, ctx.query);
    const report = await reportForDownload(deps, user, requestId, version, ctx.ip);
    ctx.type = 'application/pdf';
    ctx.set('Content-Disposition', `attachment; filename="certificate-${report.reportNumber}.pdf"`);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = await renderCertificate(report, lab, verificationUrl(baseUrl(ctx), report.verificationToken));
  });

  route(router, REPORTS, async (ctx) => {
    const user = requireUser(ctx);
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    ctx.body = await listReports(deps, user, requestId);
  });

  route(router, AMENDMENTS, async (ctx) => {
    const user = requireUser(ctx);
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    ctx.body = await listAmendments(deps, user, requestId);
  });

  route(router, AMEND, async (ctx) => {
    const user = authorize(ctx, 'certificate:amend');
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    const input = parseInput(AmendmentInput, ctx.request.body ?? {});
    ctx.status = 201;
    ctx.body = { requestId, ...(await amendResults(desk, user, requestId, input, { ip: ctx.ip })) };
  });

  route(router, RE_EVALUATE, async (ctx) => {
    const user = authorize(ctx, 'certificate:amend');
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    const input = parseInput(ReEvaluateInput, ctx.request.body ?? {});
    ctx.status = 201;
    ctx.body = { requestId, ...(await reEvaluate(desk, user, requestId, input, { ip: ctx.ip })) };
  });

  route(router, WITHDRAW, async (ctx) => {
    const user = authorize(ctx, 'certificate:withdraw');
    const { reportNumber } = parseInput(ReportParams, ctx.params);
    const input = parseInput(WithdrawalInput, ctx.request.body ?? {});
    ctx.body = await withdrawReport(desk, user, reportNumber, input, { ip: ctx.ip });
  });

  // Public. A browser opening the QR code's address wants the portal's page (served by the SPA
  // middleware after the routers); the page and scripts ask for JSON.
  route(router, VERIFY, async (ctx, next) => {
    if (ctx.accepts('json', 'html') === 'html') return next();
    const { token } = parseInput(TokenParams, ctx.params);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await verifyReport(deps, token, ctx.ip);
  });

  return router;
}
