// How the request timeline is grouped for reading: by day, then by phase, with runs of routine
// entries (result writes, mail sent) folded. Pure, so it is tested without a browser.
import type { TimelineEvent, TimelineKind } from '../../../server/domain/timeline.js';

export type Phase = 'Submission' | 'Review and reception' | 'Testing' | 'Release' | 'Rejection';

const PHASE_OF: Record<Exclude<TimelineKind, 'mail'>, Phase> = {
  submitted: 'Submission',
  question: 'Submission',
  reply: 'Submission',
  approved: 'Review and reception',
  received: 'Review and reception',
  result: 'Testing',
  completed: 'Testing',
  reopened: 'Testing',
  released: 'Release',
  rejected: 'Rejection',
};

/** Entries a reader rarely needs one by one: each result written, each mail sent. */
const ROUTINE: ReadonlySet<TimelineKind> = new Set(['result', 'mail']);
/** A run of this many routine entries or more is folded behind one line. */
export const FOLD_AT = 3;

export type TimelineItem = { event: TimelineEvent } | { folded: TimelineEvent[] };

export interface PhaseGroup {
  phase: Phase;
  items: TimelineItem[];
}

export interface DayGroup {
  /** The local day, e.g. 'March 20, 2026'. */
  day: string;
  phases: PhaseGroup[];
}

const dayOf = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });

/** Consecutive routine entries, FOLD_AT or more, become one folded item; the others stay as they are. */
function fold(events: readonly TimelineEvent[]): TimelineItem[] {
  const items: TimelineItem[] = [];
  let run: TimelineEvent[] = [];
  const flush = () => {
    if (run.length >= FOLD_AT) items.push({ folded: run });
    else items.push(...run.map((event) => ({ event })));
    run = [];
  };
  for (const event of events) {
    if (ROUTINE.has(event.kind)) {
      run.push(event);
    } else {
      flush();
      items.push({ event });
    }
  }
  flush();
  return items;
}

/**
 * Groups events (in their order) by day and, within a day, by phase; a mail belongs to the phase of
 * the event it tells about (the one before it).
 */
export function groupTimeline(events: readonly TimelineEvent[]): DayGroup[] {
  const days: Array<{ day: string; phases: Array<{ phase: Phase; events: TimelineEvent[] }> }> = [];
  let phase: Phase = 'Submission';
  for (const event of events) {
    if (event.kind !== 'mail') phase = PHASE_OF[event.kind];
    const day = dayOf(event.at);
    if (days.at(-1)?.day !== day) days.push({ day, phases: [] });
    const phases = days.at(-1)!.phases;
    if (phases.at(-1)?.phase !== phase) phases.push({ phase, events: [] });
    phases.at(-1)!.events.push(event);
  }
  return days.map((d) => ({ day: d.day, phases: d.phases.map((p) => ({ phase: p.phase, items: fold(p.events) })) }));
}

/** What a folded run says, e.g. '8 result entries' or '2 result entries and 1 mail'. */
export function foldedSummary(events: readonly TimelineEvent[]): string {
  const results = events.filter((e) => e.kind === 'result').length;
  const mails = events.length - results;
  const parts = [results > 0 && `${results} result ${results === 1 ? 'entry' : 'entries'}`, mails > 0 && `${mails} ${mails === 1 ? 'mail' : 'mails'}`];
  return parts.filter(Boolean).join(' and ');
}
