// Certificates of analysis (ISO/IEC 17025 7.8): the PDF of a released request, its list of issued
// reports, amendments after release, withdrawals, and the public verification of a certificate's QR code.
import Router from '@koa/router';
import { z } from 'zod';
import { AmendmentInput, ReportNumberParam, verificationUrl, WithdrawalInput } from '../../domain/certificate.js';
import { amendResults } from '../../services/certificates/amend.js';
import { renderCertificate } from '../../services/certificates/pdf.js';
import { listReports, reportForDownload, verifyReport } from '../../services/certificates/reports.js';
import { withdrawReport } from '../../services/certificates/withdraw.js';
import type { DeskDeps } from '../../services/requests/transitions.js';
import { parseInput } from '../../validation.js';
import type { AppContext, AppDeps, AppState } from '../context.js';
import { authorize, requireUser } from '../guards.js';
import { RequestIdParams } from '../requests/client.js';

const CertificateQuery = z.object({
  version: z.coerce.number('must be a report version').int('must be a whole number').min(1, 'must be 1 or more').max(10_000, 'is too large').optional(),
});

const TokenParams = z.object({ token: z.string().max(200) });
const ReportParams = z.object({ reportNumber: ReportNumberParam });

export function certificatesRouter(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  const desk: DeskDeps = { db: deps.db, clock: deps.clock, labName: deps.config.labName, logger: deps.logger };
  const lab = { name: deps.config.labName, shortName: deps.config.labShortName, address: deps.config.labAddress };
  // Where the QR code points: the configured public address, else the address the caller used.
  const baseUrl = (ctx: AppContext) => deps.config.publicUrl ?? `${ctx.protocol}://${ctx.host}`;

  router.get('/requests/:requestId/certificate.pdf', async (ctx) => {
    const user = requireUser(ctx);
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    const { version } = parseInput(CertificateQuery, ctx.query);
    const report = await reportForDownload(deps, user, requestId, version, ctx.ip);
    ctx.type = 'application/pdf';
    ctx.set('Content-Disposition', `attachment; filename="certificate-${report.reportNumber}.pdf"`);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = await renderCertificate(report, lab, verificationUrl(baseUrl(ctx), report.verificationToken));
  });

  router.get('/requests/:requestId/reports', async (ctx) => {
    const user = requireUser(ctx);
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    ctx.body = await listReports(deps, user, requestId);
  });

  router.post('/requests/:requestId/amendments', async (ctx) => {
    const user = authorize(ctx, 'certificate:amend');
    const { requestId } = parseInput(RequestIdParams, ctx.params);
    const input = parseInput(AmendmentInput, ctx.request.body ?? {});
    ctx.status = 201;
    ctx.body = { requestId, ...(await amendResults(desk, user, requestId, input, { ip: ctx.ip })) };
  });

  router.post('/certificates/:reportNumber/withdraw', async (ctx) => {
    const user = authorize(ctx, 'certificate:withdraw');
    const { reportNumber } = parseInput(ReportParams, ctx.params);
    const input = parseInput(WithdrawalInput, ctx.request.body ?? {});
    ctx.body = await withdrawReport(desk, user, reportNumber, input, { ip: ctx.ip });
  });

  // Public. A browser opening the QR code's address wants the portal's page (served by the SPA
  // middleware after the routers); the page and scripts ask for JSON.
  router.get('/verify/:token', async (ctx, next) => {
    if (ctx.accepts('json', 'html') === 'html') return next();
    const { token } = parseInput(TokenParams, ctx.params);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await verifyReport(deps, token, ctx.ip);
  });

  return router;
}
