import { describe, expect, it } from 'vitest';
import type { TimelineEvent, TimelineKind } from '../../server/domain/timeline.js';
import { foldedSummary, groupTimeline } from '../../ui/components/traceability/timelineGroups.js';

const event = (kind: TimelineKind, at: string): TimelineEvent => ({ at, kind, title: kind, actor: null, detail: null });

describe('groupTimeline', () => {
  it('groups by day, then by phase; a mail joins the phase of the event before it', () => {
    const groups = groupTimeline([
      event('submitted', '2026-03-02T09:00:00'),
      event('mail', '2026-03-02T09:01:00'),
      event('approved', '2026-03-02T10:00:00'),
      event('mail', '2026-03-02T10:01:00'),
      event('released', '2026-03-05T10:00:00'),
    ]);
    expect(groups.map((d) => [d.day, d.phases.map((p) => [p.phase, p.items.length])])).toEqual([
      ['March 2, 2026', [['Submission', 2], ['Review and reception', 2]]],
      ['March 5, 2026', [['Release', 1]]],
    ]);
  });

  it('folds runs of three or more routine entries and keeps the others in order', () => {
    const results = ['09:00', '09:01', '09:02', '09:03'].map((t) => event('result', `2026-03-04T${t}:00`));
    const [day] = groupTimeline([event('received', '2026-03-04T08:00:00'), ...results, event('completed', '2026-03-04T09:04:00'), event('mail', '2026-03-04T09:05:00')]);
    const testing = day.phases.find((p) => p.phase === 'Testing')!;
    expect(testing.items.map((i) => ('folded' in i ? `folded ${i.folded.length}` : i.event.kind))).toEqual(['folded 4', 'completed', 'mail']);
    expect(foldedSummary(results)).toBe('4 result entries');
    expect(foldedSummary([...results.slice(0, 1), event('mail', '2026-03-04T09:05:00')])).toBe('1 result entry and 1 mail');
  });
});
