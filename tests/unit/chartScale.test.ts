import { describe, expect, it } from 'vitest';
import { countAxis } from '../../ui/components/reports/chartScale.js';

describe('count axis of the monthly chart', () => {
  it('has whole-number ticks from zero to a round top at or above the largest count', () => {
    expect(countAxis(0)).toEqual({ max: 1, ticks: [0, 1] });
    expect(countAxis(3)).toEqual({ max: 3, ticks: [0, 1, 2, 3] });
    expect(countAxis(17)).toEqual({ max: 20, ticks: [0, 5, 10, 15, 20] });
    expect(countAxis(100)).toEqual({ max: 100, ticks: [0, 50, 100] });
    expect(countAxis(1234)).toEqual({ max: 1500, ticks: [0, 500, 1000, 1500] });
  });

  it('never has more intervals than asked for', () => {
    for (let v = 0; v <= 5000; v += 7) {
      const axis = countAxis(v);
      expect(axis.max).toBeGreaterThanOrEqual(v);
      expect(axis.ticks.length - 1).toBeLessThanOrEqual(4);
      expect(axis.ticks.every(Number.isInteger)).toBe(true);
    }
  });
});
