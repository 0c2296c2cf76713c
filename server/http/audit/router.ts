// GET /audit: the audit trail viewer for staff and admins (issue 15), filtered by user, request,
// action and date, paged (X-Total-Count, Link), as JSON or as CSV (`?format=csv`).
// The log is append-only: this group has no call that changes or deletes an entry.
import Router from '@koa/router';
import { z } from 'zod';
import { AuditFilter } from '../../domain/auditTrail.js';
import { auditTrailCsvExport, listAuditTrail } from '../../services/auditTrail.js';
import { parseInput } from '../../validation.js';
import type { AppDeps, AppState } from '../context.js';
import { sendCsv } from '../csvExport.js';
import { authorize, signedInOnly } from '../guards.js';
import { cachedRead } from '../middleware/cachedRead.js';
import { answerPage, pageAsked } from '../paging.js';

const Format = z.object({ format: z.enum(['json', 'csv'], { message: 'must be json or csv' }).default('json') });

export function auditRouter(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  router.use(signedInOnly);

  router.get('/audit', cachedRead(deps), async (ctx) => {
    authorize(ctx, 'audit:read');
    const filter = parseInput(AuditFilter, ctx.query);
    const { format } = parseInput(Format, { format: ctx.query.format });
    // The export is the whole filtered trail, not a page of it, streamed as it is read.
    if (format === 'csv') return sendCsv(ctx, 'audit-trail.csv', await auditTrailCsvExport(deps.db, filter));
    const asked = pageAsked(ctx, { paged: true });
    answerPage(ctx, asked, await listAuditTrail(deps.db, filter, asked));
  });

  return router;
}
