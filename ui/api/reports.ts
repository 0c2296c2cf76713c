/** GET api/reports/{microbioreport,chemmicrobialreport,chemelisareport,molbioreport}?year= (SPEC section 7). */
import type { Group } from '../../server/domain/catalog.js';
import type { NonConformityReport } from '../../server/domain/conformityReport.js';
import { REPORT_PATHS, type GroupReport } from '../../server/domain/reportShape.js';
import { getJson, withQuery } from './http.js';

export function getReport(group: Group, year: number, signal?: AbortSignal): Promise<GroupReport> {
  return getJson<GroupReport>(withQuery(`/api/reports/${REPORT_PATHS[group]}`, { year }), signal);
}

/** GET api/reports/years: the years, most recent first, in which the caller's reports have counts. */
export function getReportYears(signal?: AbortSignal): Promise<number[]> {
  return getJson<number[]>('/api/reports/years', signal);
}

/** GET api/reports/nonconformities?year= (issue 26): the statements of conformity per analyte and month the caller may read. */
export function getNonConformities(year: number, signal?: AbortSignal): Promise<NonConformityReport> {
  return getJson<NonConformityReport>(withQuery('/api/reports/nonconformities', { year }), signal);
}
