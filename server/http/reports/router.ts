// GET api/reports/{microbioreport,chemmicrobialreport,chemelisareport,molbioreport}?year=: the
// monthly positive/negative counts of SPEC section 3, for the desk and the tester of the discipline.
import Router from '@koa/router';
import { z } from 'zod';
import { GROUPS } from '../../domain/catalog.js';
import { groupOfReportPath, REPORT_PATHS, REPORT_YEAR_MAX, REPORT_YEAR_MIN } from '../../domain/reportShape.js';
import { monthlyReport, reportYears } from '../../services/reports.js';
import { parseInput } from '../../validation.js';
import type { AppDeps, AppState } from '../context.js';
import { authorize, requireUser, signedInOnly } from '../guards.js';
import { cachedRead } from '../middleware/cachedRead.js';

export const ReportQuery = z.object({
  year: z.coerce
    .number('must be a year')
    .int('must be a whole year')
    .min(REPORT_YEAR_MIN, `must be ${REPORT_YEAR_MIN} or later`)
    .max(REPORT_YEAR_MAX, `must be ${REPORT_YEAR_MAX} or earlier`)
    .optional(),
});

const ReportParams = z.object({
  report: z.string().transform((path, ctx) => {
    const group = groupOfReportPath(path);
    if (!group) ctx.addIssue({ code: 'custom', message: `use one of ${GROUPS.map((g) => REPORT_PATHS[g]).join(', ')}` });
    return group!;
  }),
});

export function reportsRouter(deps: AppDeps): Router<AppState> {
  const cached = cachedRead(deps);
  const router = new Router<AppState>();
  // No report is public.
  router.use(signedInOnly);

  // Before :report, which would take 'years' for a report's name.
  router.get('/api/reports/years', cached, async (ctx) => {
    ctx.body = await reportYears(deps.db, requireUser(ctx));
  });

  router.get('/api/reports/:report', cached, async (ctx) => {
    const { report: group } = parseInput(ReportParams, ctx.params);
    authorize(ctx, 'reports:read', { group });
    const { year = deps.clock.now().getUTCFullYear() } = parseInput(ReportQuery, ctx.query);
    ctx.body = await monthlyReport(deps.db, group, year);
  });

  return router;
}
