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
import { linkNextAfter } from '../paging.js';
import { PagedQuery } from '../../domain/paging.js';
import { decodeKeyset, encodeKeyset } from '../queueCursor.js';
import { csv, json, route, type RouteDoc } from '../route.js';

const Format = z.object({ format: z.enum(['json', 'csv'], { message: 'must be json or csv' }).default('json') });

const NEWEST = 'newest';

/**
 * A page: `limit` entries, the first ones or (`after`, the cursor a Link rel="next" carries) those
 * below the page before. `offset` still skips entries for callers that page by it; not with `after`.
 */
const AuditPage = PagedQuery.extend({
  after: z
    .string('must be a cursor')
    .max(200, 'is not a cursor of this list')
    .transform((text, ctx) => {
      const decoded = decodeKeyset(text, 1);
      if (decoded?.order === NEWEST) return { at: decoded.keys[0], id: decoded.id };
      ctx.addIssue({ code: 'custom', message: 'is not a cursor of this list' });
      return z.NEVER;
    })
    .optional(),
}).refine((page) => !page.after || page.offset === 0, { path: ['offset'], message: 'cannot be combined with after' });

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
  summary: 'The audit trail filtered by user, request, action and dates, a keyset page at a time (Link rel="next" carries `after`); ?format=csv exports it (desk).',
  query: AuditFilter.extend({ ...AuditPage.shape, ...Format.shape }),
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
    const page = await listAuditTrail(deps.db, filter, parseInput(AuditPage, ctx.query));
    ctx.set('X-Total-Count', String(page.total));
    if (page.next) linkNextAfter(ctx, encodeKeyset(NEWEST, [page.next.at], page.next.id), ['offset']);
    ctx.body = page.rows;
  });

  return router;
}
