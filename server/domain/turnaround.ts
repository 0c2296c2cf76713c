// The turnaround dashboard (issues 15 and 22): open requests by age and due date, late ones first, a
// page at a time, and the load per discipline. Pure date maths on calendar days (UTC, as due dates
// are stored).
import { disciplineOfFamily, FAMILIES, FAMILY_LABELS, type Family } from './catalog.js';
import { csvLines, inertText } from './csv.js';
import type { RequestStatus } from './requestStatus.js';
import type { Discipline } from './roles.js';
import { DAY_MS } from './dates.js';

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

/** One week's requests of a discipline, by how their turnaround went (submitted that week, rejected ones left out). */
export interface WeekCounts {
  /** The week's Monday (YYYY-MM-DD). */
  week: string;
  /** Released by their due date (or without one). */
  onTime: number;
  /** Released after their due date, or still open past it. */
  late: number;
  /** Still open, not yet due. */
  open: number;
}

export interface DisciplineWeeks {
  family: Family;
  label: string;
  weeks: WeekCounts[];
}

/** The filters of the dashboard's chart and list: a discipline, and days of submission (UTC, inclusive). */
export interface TurnaroundFilter {
  discipline?: Discipline;
  since?: string;
  until?: string;
  /** The list holds only the open requests past their due date. */
  late?: boolean;
}

export interface Turnaround {
  /** The day the figures are for (YYYY-MM-DD). */
  today: string;
  disciplines: DisciplineLoad[];
  /** A page of the open requests, in urgency order. */
  requests: TurnaroundRequest[];
}

/** The turnaround chart (GET requests/turnaround/weeks). */
export interface TurnaroundWeeks {
  today: string;
  /** The days of submission the chart covers (the filter's, else the last CHART_WEEKS weeks). */
  window: { since: string; until: string };
  /** Per discipline (the filter's, else each) and week of submission in the window, how turnaround went. */
  weeks: DisciplineWeeks[];
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

const dayNumber = (ymd: string) => Math.floor(Date.parse(`${ymd.slice(0, 10)}T00:00:00Z`) / DAY_MS);

/** Whole calendar days from the submission's day to `today`. */
export function ageInDays(submissionIso: string, today: string): number {
  return Math.max(0, dayNumber(today) - dayNumber(submissionIso));
}

/** Days past `dueDate` on `today`: the due day itself is not late. */
export function daysLate(dueDate: string | null, today: string): number {
  return dueDate ? Math.max(0, dayNumber(today) - dayNumber(dueDate)) : 0;
}

/** Weeks the chart shows when the filter names no start; the longest range it charts, in days. */
export const CHART_WEEKS = 12;
export const CHART_MAX_DAYS = 366;

const dayOf = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

/** The Monday of the week of `day` (YYYY-MM-DD). */
export function mondayOf(day: string): string {
  const n = dayNumber(day);
  // Day 0 (1970-01-01) was a Thursday.
  return dayOf(n - ((n + 3) % 7));
}

/** The days the chart covers: the filter's range, an open end closed by today or by CHART_WEEKS weeks before the other end. */
export function chartWindow(today: string, filter: Pick<TurnaroundFilter, 'since' | 'until'>): { since: string; until: string } {
  const until = filter.until ?? (filter.since && filter.since > today ? filter.since : today);
  return { since: filter.since ?? dayOf(dayNumber(mondayOf(until)) - 7 * (CHART_WEEKS - 1)), until };
}

/** Whether the range is one the chart draws (at most CHART_MAX_DAYS days). */
export const chartableRange = (since: string, until: string): boolean => dayNumber(until) - dayNumber(since) < CHART_MAX_DAYS;

/** Counts per discipline and day of submission, as the database sums them. */
export interface DayCounts {
  family: Family;
  day: string;
  onTime: number;
  late: number;
  open: number;
}

/** The day counts folded into weeks (Monday first), every week of the window present, per discipline asked. */
export function weeklyTurnaround(days: readonly DayCounts[], window: { since: string; until: string }, families: readonly Family[]): DisciplineWeeks[] {
  const mondays: string[] = [];
  for (let n = dayNumber(mondayOf(window.since)); n <= dayNumber(window.until); n += 7) mondays.push(dayOf(n));
  return families.map((family) => {
    const weeks = new Map(mondays.map((week) => [week, { week, onTime: 0, late: 0, open: 0 }]));
    for (const d of days) {
      const week = d.family === family ? weeks.get(mondayOf(d.day)) : undefined;
      if (!week) continue;
      week.onTime += d.onTime;
      week.late += d.late;
      week.open += d.open;
    }
    return { family, label: FAMILY_LABELS[family], weeks: [...weeks.values()] };
  });
}

/** The families a filter charts: its discipline's, else every one. */
export const familiesOfFilter = (filter: TurnaroundFilter): readonly Family[] =>
  filter.discipline ? FAMILIES.filter((f) => disciplineOfFamily(f) === filter.discipline) : FAMILIES;

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
