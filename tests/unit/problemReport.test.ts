import { describe, expect, it } from 'vitest';
import { groupedProblemLines, lineRanges, SHOWN_GROUPS } from '../../cli/problemReport.js';

describe('groupedProblemLines', () => {
  it('says an identical problem once with its lines and their number', () => {
    const problems = Array.from({ length: 100_000 }, (_, i) => ({ line: i + 3, message: 'dog may not be entered' }));
    expect(groupedProblemLines([{ line: 2, message: 'value is empty' }, ...problems])).toEqual([
      'line 2: value is empty',
      'line 3-100,002: dog may not be entered (100,000 lines)',
    ]);
  });

  it('caps the groups shown and counts the rest', () => {
    const problems = Array.from({ length: 50 }, (_, i) => ({ line: i + 2, message: `problem ${i}` }));
    const lines = groupedProblemLines(problems, 'warning: ');
    expect(lines).toHaveLength(SHOWN_GROUPS + 1);
    expect(lines[0]).toBe('warning: line 2: problem 0');
    expect(lines.at(-1)).toBe('warning: ... and 30 more on other lines (--json lists every one)');
  });

  it('writes line lists as ranges, shortening long ones', () => {
    expect(lineRanges([2, 3, 4, 7, 9, 10])).toBe('2-4, 7, 9-10');
    expect(lineRanges(Array.from({ length: 30 }, (_, i) => i * 2))).toBe('0, 2, 4, 6, 8, 10, 12, 14, 16, 18 and 20 more ranges');
  });
});
