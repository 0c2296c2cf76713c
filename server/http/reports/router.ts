// GET api/reports/{microbioreport,chemmicrobialreport,chemelisareport,molbioreport}?year=: the
// monthly positive/negative counts of SPEC section 3, for the desk and the tester of the discipline.
import Router from '@koa/router';
import { z } from 'zod';
import { GROUPS } from '../../domain/catalog.js';
import { groupOfReportPath, REPORT_PATHS, REPORT_YEAR_MAX, REPORT_YEAR_MIN } from '../../domain/reportShape.js';
import { monthlyReport, nonConformityReport, reportYears } from '../../services/reports.js';
import { DISCIPLINES } from '../../domain/roles.js';
import { parseInput } from '../../validation.js';
import type { AppDeps, AppState } from '../context.js';
import { authorize, requireUser } from '../guards.js';
import { cachedRead } from '../middleware/cachedRead.js';
import { json, route, type RouteDoc } from '../route.js';

export const ReportQuery = z.object({
  year: z.coerce
    .number('must be a year')
    .int('must be a whole year')
    .min(REPORT_YEAR_MIN, `must be ${REPORT_YEAR_MIN} or later`)
    .max(REPORT_YEAR_MAX, `must be ${REPORT_YEAR_MAX} or earlier`)
    .optional(),
});

const REPORT_NAMES = GROUPS.map((g) => REPORT_PATHS[g]) as [string, ...string[]];
const ReportParams = z.object({
  report: z.enum(REPORT_NAMES, `use one of ${REPORT_NAMES.join(', ')}`).transform((path) => groupOfReportPath(path)!),
});

const MonthlyReportBody = z
  .record(z.string(), z.record(z.string(), z.object({ positive: z.number().int(), negative: z.number().int() })))
  .meta({
    description: 'Per test `{reportName}PosNegCountsByMonthAndYear`, per month (YYYY-MM) of the year, the positive and negative counts.',
    example: { salmonellaPosNegCountsByMonthAndYear: { '2026-01': { positive: 0, negative: 3 } } },
  });

const YEARS: RouteDoc = {
  method: 'get',
  path: '/api/reports/years',
  summary: 'The years, most recent first, in which the reports the caller reads have data (the year picker of the database screens).',
  responses: { 200: json('The years.', z.array(z.number().int()), { example: [2026, 2025] }) },
  errors: [403],
};
const NonConformityBody = z
  .object({
    year: z.number().int(),
    rows: z.array(z.object({
      testCode: z.string(), discipline: z.enum(DISCIPLINES), month: z.string(),
      doesNotConform: z.number().int(), inconclusive: z.number().int(), conforms: z.number().int(),
    })),
  })
  .meta({ example: { year: 2026, rows: [{ testCode: 'chloramphenicol', discipline: 'chem', month: '2026-03', doesNotConform: 1, inconclusive: 0, conforms: 4 }] } });
const NON_CONFORMITIES: RouteDoc = {
  method: 'get',
  path: '/api/reports/nonconformities',
  summary: 'Issue 26: per analyte and month of a year, the results judged not conforming, inconclusive and conforming (the desk; testers their discipline).',
  query: ReportQuery,
  responses: { 200: json('The counts, by month then catalogue order.', NonConformityBody) },
  errors: [403],
};
const MONTHLY: RouteDoc = {
  method: 'get',
  path: '/api/reports/:report',
  summary: 'A monthly report of one discipline group for a year (SPEC section 7, Reports).',
  params: ReportParams,
  query: ReportQuery,
  responses: { 200: json('The counts.', MonthlyReportBody) },
  errors: [403],
};

export function reportsRouter(deps: AppDeps): Router<AppState> {
  const cached = cachedRead(deps);
  const router = new Router<AppState>();

  // Before :report, which would take 'years' for a report's name.
  route(router, YEARS, cached, async (ctx) => {
    ctx.body = await reportYears(deps.db, requireUser(ctx));
  });

  // Before :report too.
  route(router, NON_CONFORMITIES, cached, async (ctx) => {
    const { year = deps.clock.now().getUTCFullYear() } = parseInput(ReportQuery, ctx.query);
    ctx.body = await nonConformityReport(deps.db, requireUser(ctx), year);
  });

  route(router, MONTHLY, cached, async (ctx) => {
    const { report: group } = parseInput(ReportParams, ctx.params);
    authorize(ctx, 'reports:read', { group });
    const { year = deps.clock.now().getUTCFullYear() } = parseInput(ReportQuery, ctx.query);
    ctx.body = await monthlyReport(deps.db, group, year);
  });

  return router;
}
