import { describe, expect, it } from 'vitest';
import { chartableRange, chartWindow, mondayOf, weeklyTurnaround } from '../../server/domain/turnaround.js';

describe('turnaround per week (issue 25)', () => {
  it('finds the Monday of a week, a Monday and a Sunday included', () => {
    expect(mondayOf('2026-03-20')).toBe('2026-03-16');
    expect(mondayOf('2026-03-16')).toBe('2026-03-16');
    expect(mondayOf('2026-03-22')).toBe('2026-03-16');
    expect(mondayOf('2026-01-01')).toBe('2025-12-29');
  });

  it('charts the filter’s days, or twelve weeks up to today or to the end asked', () => {
    expect(chartWindow('2026-03-20', {})).toEqual({ since: '2025-12-29', until: '2026-03-20' });
    expect(chartWindow('2026-03-20', { until: '2026-02-04' })).toEqual({ since: '2025-11-17', until: '2026-02-04' });
    expect(chartWindow('2026-03-20', { since: '2026-03-01' })).toEqual({ since: '2026-03-01', until: '2026-03-20' });
    expect(chartWindow('2026-03-20', { since: '2026-04-01' })).toEqual({ since: '2026-04-01', until: '2026-04-01' });
    expect(chartableRange('2025-03-20', '2026-03-20')).toBe(true);
    expect(chartableRange('2025-03-19', '2026-03-20')).toBe(false);
  });

  it('folds days into weeks, every week of the window present, per discipline asked', () => {
    const days = [
      { family: 'microbio' as const, day: '2026-03-02', onTime: 1, late: 0, open: 0 },
      { family: 'microbio' as const, day: '2026-03-08', onTime: 0, late: 2, open: 0 },
      { family: 'microbio' as const, day: '2026-03-18', onTime: 0, late: 0, open: 3 },
      { family: 'chem' as const, day: '2026-03-18', onTime: 5, late: 0, open: 0 },
    ];
    expect(weeklyTurnaround(days, { since: '2026-03-04', until: '2026-03-20' }, ['microbio'])).toEqual([
      {
        family: 'microbio',
        label: 'Microbiological',
        weeks: [
          { week: '2026-03-02', onTime: 1, late: 2, open: 0 },
          { week: '2026-03-09', onTime: 0, late: 0, open: 0 },
          { week: '2026-03-16', onTime: 0, late: 0, open: 3 },
        ],
      },
    ]);
  });
});
