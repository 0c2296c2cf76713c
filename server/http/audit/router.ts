// GET /audit: the audit trail viewer for staff and admins (issue 15), filtered by user, request,
// action and date, paged (X-Total-Count, Link), as JSON or as CSV (`?format=csv`).
// The log is append-only: this group has no call that changes or deletes an entry.
import Router from '@koa/router';
import { z } from 'zod';
import { auditCsv, AuditFilter } from '../../domain/auditTrail.js';
import { listAuditTrail } from '../../services/auditTrail.js';
import { parseInput } from '../../validation.js';
import type { AppDeps, AppState } from '../context.js';
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
    if (format === 'csv') {
      // The export is the whole filtered trail, not a page of it.
      const { rows } = await listAuditTrail(deps.db, filter, {});
      ctx.type = 'text/csv; charset=utf-8';
      ctx.attachment('audit-trail.csv');
      ctx.body = auditCsv(rows);
      return;
    }
    const asked = pageAsked(ctx, { paged: true });
    answerPage(ctx, asked, await listAuditTrail(deps.db, filter, asked));
  });

  return router;
}
