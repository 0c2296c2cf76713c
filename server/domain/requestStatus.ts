// The request life cycle of DESIGN.md section 5 as pure functions: one place says which transition
// is allowed from which status, for the API, the CLI and the UI alike.

export const REQUEST_STATUSES = ['PENDING_REVIEW', 'FOR_TESTING', 'FOR_RELEASE', 'RELEASED', 'REJECTED'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const STATUS_DISPLAY: Record<RequestStatus, string> = {
  PENDING_REVIEW: 'PENDING REVIEW',
  FOR_TESTING: 'FOR TESTING',
  FOR_RELEASE: 'FOR RELEASE',
  RELEASED: 'RELEASED',
  REJECTED: 'REJECTED',
};

export type Transition = 'approve' | 'reject' | 'release';

const ALLOWED_FROM: Record<Transition, readonly RequestStatus[]> = {
  approve: ['PENDING_REVIEW'],
  reject: ['PENDING_REVIEW', 'FOR_RELEASE'],
  release: ['FOR_RELEASE'],
};

const TARGET: Record<Transition, RequestStatus> = {
  approve: 'FOR_TESTING',
  reject: 'REJECTED',
  release: 'RELEASED',
};

export type TransitionResult = { ok: true; to: RequestStatus } | { ok: false; reason: string };

/** Whether a staff transition may happen from `from`, and why not when it may not. */
export function applyTransition(from: RequestStatus, transition: Transition): TransitionResult {
  if (ALLOWED_FROM[transition].includes(from)) return { ok: true, to: TARGET[transition] };
  const allowed = ALLOWED_FROM[transition].map((s) => STATUS_DISPLAY[s]).join(' or ');
  return {
    ok: false,
    reason: `Cannot ${transition} a request that is ${STATUS_DISPLAY[from]}; only a request that is ${allowed} can be.`,
  };
}

/** Statuses in which results are being entered (and may still change): testing under way or awaiting release. */
export const OPEN_STATUSES: readonly RequestStatus[] = ['FOR_TESTING', 'FOR_RELEASE'];

/** Results may be written only while a request is open (OPEN_STATUSES). */
export function acceptsResults(status: RequestStatus): boolean {
  return OPEN_STATUSES.includes(status);
}

/**
 * The status after a result write: complete requests await release, an emptied result sends the
 * request back to testing. Other statuses are not moved by results.
 */
export function statusAfterResults(status: RequestStatus, allAnalysesComplete: boolean): RequestStatus {
  if (!acceptsResults(status)) return status;
  return allAnalysesComplete ? 'FOR_RELEASE' : 'FOR_TESTING';
}

/** An analysis is complete once it has a value and a remark. */
export function isAnalysisComplete(a: { value: string | null; remark: string | null }): boolean {
  return a.value !== null && a.value.trim() !== '' && (a.remark === 'positive' || a.remark === 'negative');
}
