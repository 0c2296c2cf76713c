/** Certificates of analysis: a request's issued reports, their PDFs, amendments, withdrawals, public verification. */
import type { AmendmentNote, ReportSummary, Verification } from '../../server/domain/certificate.js';
import type { ResultFieldsInput } from '../../server/domain/resultShape.js';
import { getJson, postJson, segment } from './http.js';

/** Where the PDF of a request's report is downloaded: its latest issue, or `version`. */
export function certificateUrl(requestId: string | number, version?: number): string {
  return `/requests/${segment(requestId)}/certificate.pdf${version ? `?version=${version}` : ''}`;
}

/** GET requests/{id}/reports: every issue, first first. */
export function listReports(requestId: string | number, signal?: AbortSignal): Promise<ReportSummary[]> {
  return getJson<ReportSummary[]>(`/requests/${segment(requestId)}/reports`, signal);
}

/** GET requests/{id}/amendments: each amended result, first amendment first (a tester: its own discipline's only). */
export function listAmendments(requestId: string | number, signal?: AbortSignal): Promise<AmendmentNote[]> {
  return getJson<AmendmentNote[]>(`/requests/${segment(requestId)}/amendments`, signal);
}

export type AmendedResult = { sampleId: number; testCode: string } & ResultFieldsInput;

/** POST requests/{id}/amendments: signed with the staff member's password. */
export function amendResults(
  requestId: string | number,
  input: { reason: string; password: string; results: AmendedResult[] },
): Promise<{ reportNumber: string; replaces: string }> {
  return postJson(`/requests/${segment(requestId)}/amendments`, input);
}

/**
 * POST /api/requests/{id}/re-evaluate (issue 26): judges a released request again against the
 * specifications and decision rule in force, signed like an amendment; 400 when every decision stands.
 */
export function reEvaluateRequest(requestId: string | number, input: { reason: string; password: string }): Promise<{ requestId: number; reportNumber: string; replaces: string }> {
  return postJson(`/api/requests/${segment(requestId)}/re-evaluate`, input);
}

/** POST certificates/{reportNumber}/withdraw: signed with the staff member's password. */
export function withdrawReport(reportNumber: string, input: { reason: string; password: string }): Promise<{ reportNumber: string; withdrawnAt: string }> {
  return postJson(`/certificates/${segment(reportNumber)}/withdraw`, input);
}

/** GET verify/{token}: public. */
export function verifyCertificate(token: string, signal?: AbortSignal): Promise<Verification> {
  return getJson<Verification>(`/verify/${segment(token)}`, signal);
}
