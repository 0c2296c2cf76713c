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
import { authorize } from '../guards.js';
import { cachedRead } from '../middleware/cachedRead.js';
import { answerPage, pageAsked } from '../paging.js';
import { PagedQuery } from '../../domain/paging.js';
import { csv, json, route, type RouteDoc } from '../route.js';

const Format = z.object({ format: z.enum(['json', 'csv'], { message: 'must be json or csv' }).default('json') });

const AuditRecordBody = z
  .object({
    id: z.number().int(),
    at: z.string(),
    actorUserId: z.number().int().nullable(),
    actorName: z.string().nullable(),
    actorRole: z.string().nullable(),
    action: z.string(),
    requestId: z.number().int().nullable(),
    controlNumber: z.string().nullable(),
    details: z.unknown().meta({ description: 'What the action recorded (before and after, a reason, a signature).' }),
    ip: z.string().nullable(),
  })
  .meta({
    example: { id: 1, at: '2026-03-02T09:00:00.000Z', actorUserId: 3, actorName: 'Ana Reyes', actorRole: 'staff', action: 'request.approve', requestId: 7, controlNumber: '2026-0007', details: null, ip: '127.0.0.1' },
  });

const AUDIT: RouteDoc = {
  method: 'get',
  path: '/audit',
  summary: 'The audit trail filtered by user, request, action and dates, paged; ?format=csv exports it (desk).',
  query: AuditFilter.extend({ ...PagedQuery.shape, ...Format.shape }),
  responses: { 200: [json('A page of entries, newest first.', z.array(AuditRecordBody), { headers: ['X-Total-Count', 'Link'] }), csv('format=csv: the whole filtered trail.')] },
  errors: [403],
};

export function auditRouter(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();

  route(router, AUDIT, cachedRead(deps), async (ctx) => {
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
