// The audit trail viewer's filters and its CSV export (issue 15). Pure: the API, the CLI and the UI
// share the filter rules; the service turns them into one query.
import { z } from 'zod';
import { csvField, inertText } from './csv.js';
import { IdSchema } from './ids.js';
import type { AuditRecord } from './timeline.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const CONTROL_NUMBER = /^\d{4}-\d{4,}$/;

const day = z
  .string('must be a date')
  .trim()
  .regex(DAY, 'must be a date such as 2026-03-01')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'is not a real date');

/** Filters of the viewer; every one optional. `request` is a request id or a control number. */
export const AuditFilter = z
  .object({
    user: z.string('must be text').trim().min(1, 'must not be empty').max(254, 'is too long').optional(),
    request: z
      .string('must be text')
      .trim()
      .refine((s) => CONTROL_NUMBER.test(s) || IdSchema.safeParse(s).success, 'must be a request id or a control number such as 2026-0001')
      .optional(),
    action: z.string('must be text').trim().regex(/^[a-z][a-z.-]{0,59}$/, 'must be an action such as request.approve or request').optional(),
    since: day.optional(),
    until: day.optional(),
  })
  .refine((f) => !f.since || !f.until || f.since <= f.until, { path: ['until'], message: 'must not be before since' });
export type AuditFilter = z.output<typeof AuditFilter>;

/** How a request filter value reads: a control number or an id. */
export function requestFilterOf(value: string): { controlNumber: string } | { requestId: number } {
  return CONTROL_NUMBER.test(value) ? { controlNumber: value } : { requestId: Number(value) };
}

/** The first instant after day `until` (ISO): `until` is inclusive. */
export function dayAfter(until: string): string {
  const d = new Date(`${until}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString();
}

/** Whether the action filter `wanted` names `action`: that action, or a family of it ('request' names request.approve, ...). */
export function actionMatches(wanted: string, action: string): boolean {
  return action === wanted || action.startsWith(`${wanted}.`);
}

/** The user filter: a numeric id, else a username or e-mail (case-insensitive). */
export function userFilterOf(value: string): { userId: number } | { name: string } {
  return /^\d+$/.test(value) ? { userId: Number(value) } : { name: value.toLowerCase() };
}

const CSV_HEADER = ['id', 'at', 'actor', 'role', 'action', 'request_id', 'control_number', 'details', 'ip'];

/** One audit CSV field: quoted when needed, a leading formula character neutralised for spreadsheets. */
const auditField = (value: unknown): string =>
  csvField(inertText(value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value)));

/** The header line of the audit CSV. */
export const auditCsvHeader = (): string => `${CSV_HEADER.join(',')}\r\n`;

/** Audit rows as CSV lines (RFC 4180, CRLF line ends). */
export function auditCsvRows(rows: readonly AuditRecord[]): string {
  return rows.map((r) => `${[r.id, r.at, r.actorName, r.actorRole, r.action, r.requestId, r.controlNumber, r.details, r.ip].map(auditField).join(',')}\r\n`).join('');
}

/** The audit rows as CSV with a header line. */
export const auditCsv = (rows: readonly AuditRecord[]): string => auditCsvHeader() + auditCsvRows(rows);
