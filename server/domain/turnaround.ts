// The turnaround dashboard (issues 15 and 22): open requests by age and due date, late ones first, a
// page at a time, and the load per discipline. Pure date maths on calendar days (UTC, as due dates
// are stored).
import { FAMILIES, FAMILY_LABELS, type Family } from './catalog.js';
import { csvLines, inertText } from './csv.js';
import type { RequestStatus } from './requestStatus.js';

/** Statuses still waiting on the laboratory. */
export const OPEN_REQUEST_STATUSES: readonly RequestStatus[] = ['PENDING_REVIEW', 'FOR_TESTING', 'FOR_RELEASE'];

export interface TurnaroundRequest {
  requestId: number;
  controlNumber: string | null;
  status: RequestStatus;
  companyName: string;
  submissionDate: string;
  dueDate: string | null;
  families: Family[];
  /** Whole days since submission. */
  ageDays: number;
  /** Days past the due date (0 when not late, or without a due date). */
  daysLate: number;
}

export interface DisciplineLoad {
  family: Family;
  label: string;
  open: number;
  late: number;
  /** Submission of the oldest open request, or null. */
  oldestSubmission: string | null;
}

export interface Turnaround {
  /** The day the figures are for (YYYY-MM-DD). */
  today: string;
  disciplines: DisciplineLoad[];
  /** A page of the open requests, in urgency order. */
  requests: TurnaroundRequest[];
}

/**
 * Where a page of the open requests ended, in urgency order: by due date (a missing one last), then
 * submission, then id. A late request is due before any on time, and the more days late the earlier,
 * so the latest come first.
 */
export interface UrgencyCursor {
  /** The due date, or 9999-12-31 without one. */
  dueKey: string;
  submissionDate: string;
  id: number;
}

const DAY_MS = 86_400_000;
const dayNumber = (ymd: string) => Math.floor(Date.parse(`${ymd.slice(0, 10)}T00:00:00Z`) / DAY_MS);

/** Whole calendar days from the submission's day to `today`. */
export function ageInDays(submissionIso: string, today: string): number {
  return Math.max(0, dayNumber(today) - dayNumber(submissionIso));
}

/** Days past `dueDate` on `today`: the due day itself is not late. */
export function daysLate(dueDate: string | null, today: string): number {
  return dueDate ? Math.max(0, dayNumber(today) - dayNumber(dueDate)) : 0;
}

/** Every discipline in catalog order, with zeros for one without open requests. */
export function disciplineLoads(counts: readonly { family: string; open: number; late: number; oldest: string | null }[]): DisciplineLoad[] {
  return FAMILIES.map((family) => {
    const c = counts.find((x) => x.family === family);
    return { family, label: FAMILY_LABELS[family], open: c?.open ?? 0, late: c?.late ?? 0, oldestSubmission: c?.oldest ?? null };
  });
}

const CSV_HEADER = ['Control number', 'Status', 'Company', 'Disciplines', 'Submitted', 'Due date', 'Age (days)', 'Days late'];

/** The header line of the turnaround CSV download. */
export const turnaroundCsvHeader = (): string => csvLines([CSV_HEADER]);

/** Open requests as CSV lines (RFC 4180, CRLF), in the order given; typed text made inert. */
export function turnaroundCsvRows(requests: readonly TurnaroundRequest[]): string {
  return csvLines(
    requests.map((r) => [
      r.controlNumber ?? '',
      r.status,
      inertText(r.companyName),
      r.families.map((f) => FAMILY_LABELS[f]).join(' / '),
      r.submissionDate,
      r.dueDate ?? '',
      r.ageDays,
      r.daysLate,
    ]),
  );
}
