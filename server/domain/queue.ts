// The work queues people page through all day (GET requests/queue/...): which lists there are, how
// they sort, the opaque keyset cursor, and the row each screen shows. Pure, so the UI reads the same
// names and the CSV export writes the same columns.
import { csvLines, inertText } from './csv.js';
import type { Receipt } from './reception.js';
import type { RequestStatus } from './requestStatus.js';
import type { TesterSample } from './resultShape.js';
import type { Discipline } from './roles.js';
import type { Outcome } from './specifications.js';

export const QUEUES = ['pending', 'for-release', 'for-testing', 'released'] as const;
export type QueueName = (typeof QUEUES)[number];

/** The statuses each list holds; the `status` filter narrows within them. */
export const QUEUE_STATUSES: Record<QueueName | 'client', readonly RequestStatus[]> = {
  pending: ['PENDING_REVIEW'],
  'for-release': ['FOR_RELEASE'],
  'for-testing': ['FOR_TESTING', 'FOR_RELEASE'],
  released: ['RELEASED'],
  client: ['PENDING_REVIEW', 'FOR_TESTING', 'FOR_RELEASE', 'RELEASED', 'REJECTED'],
};

/**
 * oldest / newest: by submission (on the released list: by release); urgent: earliest due date
 * first. Ties are broken by id.
 */
export const QUEUE_SORTS = ['oldest', 'urgent', 'newest'] as const;
export type QueueSort = (typeof QUEUE_SORTS)[number];

/** The sorts each list offers (a released request is no longer urgent) and the one it starts in. */
export const LIST_SORTS: Record<QueueName | 'client', { sorts: readonly QueueSort[]; first: QueueSort }> = {
  pending: { sorts: QUEUE_SORTS, first: 'oldest' },
  'for-release': { sorts: QUEUE_SORTS, first: 'oldest' },
  'for-testing': { sorts: QUEUE_SORTS, first: 'oldest' },
  released: { sorts: ['newest', 'oldest'], first: 'newest' },
  client: { sorts: QUEUE_SORTS, first: 'oldest' },
};

/** A tester's queue holds outstanding work by default; `finished` shows the rest. */
export const WORK_STATES = ['outstanding', 'finished', 'all'] as const;
export type WorkState = (typeof WORK_STATES)[number];

export const QUEUE_PAGE_SIZE = 50;
export const QUEUE_MAX_PAGE_SIZE = 200;
/** Rows a CSV export reads per query while it streams the whole list. */
export const QUEUE_EXPORT_CHUNK = 500;

/** Where the last page ended: its last row's sort key and id. */
export interface QueueCursor {
  key: string;
  id: number;
}

export interface QueueFilter {
  /** Searched in control number, company and lot (case-insensitive, anywhere in the text). */
  q?: string;
  discipline?: Discipline;
  status?: RequestStatus;
  /** for-testing only. */
  state?: WorkState;
  /** YYYY-MM-DD, inclusive: the list's day (the release on the released list, else the submission) from `since` to `until`. */
  since?: string;
  until?: string;
  sort: QueueSort;
}

/** A row of a work queue or of the client's track list: what the screens show and nothing more. */
export interface QueueRow {
  requestId: number;
  controlNumber: string | null;
  requestStatus: RequestStatus;
  companyName: string;
  clientClassification: string;
  /** The testing purpose as the client chose it (the "other" text when they typed one). */
  purpose: string;
  lotBatchNo: string | null;
  samples: number;
  /** Ticked test codes, in catalog order. */
  tests: string[];
  /** ISO timestamp. */
  submissionDate: string;
  /** ISO timestamp: submitted (pending), approved (for testing), last result entered (for release). */
  waitingSince: string;
  /** YYYY-MM-DD; null for a rejected request (it will not be done). */
  dueDate: string | null;
  /** for-release: whether any result is positive. */
  anyPositive?: boolean;
  /** for-release (issue 26): the worst decision of the request's analyses (null: none judged). */
  conformity?: Outcome | null;
  /** for-testing: complete analyses (value and +/-) of the tester's discipline (every discipline for staff) out of all. */
  progress?: { entered: number; total: number };
  /** for-testing: the samples with their request's sample information, in row order. */
  sampleList?: TesterSample[];
  /** for-testing: how the samples arrived (null until received); a flagged receipt warns the tester. */
  receipt?: Receipt | null;
  /** released: ISO timestamp of the release. */
  releasedAt?: string;
  /** Client list: why the laboratory rejected the request. */
  rejectionReason?: string | null;
}

export interface QueuePage {
  rows: QueueRow[];
  /** The cursor of the next page; absent on the last page. */
  next?: QueueCursor;
  /** The sort key of the next page's first row (present with `next`): what keeps the next page there. */
  followingKey?: string;
}

const CSV_HEADER = ['Control number', 'Status', 'Company', 'Purpose', 'Lot', 'Samples', 'Tests', 'Submitted', 'Waiting since', 'Due date', 'Any positive', 'Released'];

/** The header line of a list's CSV export. */
export const queueCsvHeader = (): string => csvLines([CSV_HEADER]);

/** The rows as CSV lines (RFC 4180, CRLF), the columns the staff lists show; typed text made inert. */
export function queueCsvRows(rows: readonly QueueRow[]): string {
  return csvLines(
    rows.map((r) => [
      r.controlNumber ?? '',
      r.requestStatus,
      inertText(r.companyName),
      inertText(r.purpose),
      inertText(r.lotBatchNo ?? ''),
      r.samples,
      r.tests.join(' '),
      r.submissionDate,
      r.waitingSince,
      r.dueDate ?? '',
      r.anyPositive === undefined ? '' : r.anyPositive ? 'yes' : 'no',
      r.releasedAt ?? '',
    ]),
  );
}
