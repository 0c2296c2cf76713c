import { describe, expect, it } from 'vitest';
import { applyTransition, isAnalysisComplete, statusAfterResults } from '../../server/domain/requestStatus.js';

describe('request status machine', () => {
  it.each([
    ['PENDING_REVIEW', 'approve', 'FOR_TESTING'],
    ['PENDING_REVIEW', 'reject', 'REJECTED'],
    ['FOR_RELEASE', 'reject', 'REJECTED'],
    ['FOR_RELEASE', 'release', 'RELEASED'],
  ] as const)('%s --%s--> %s', (from, t, to) => {
    expect(applyTransition(from, t)).toEqual({ ok: true, to });
  });

  it.each([
    ['FOR_TESTING', 'approve'],
    ['FOR_TESTING', 'release'],
    ['RELEASED', 'reject'],
    ['REJECTED', 'release'],
    ['PENDING_REVIEW', 'release'],
  ] as const)('refuses %s --%s with a reason', (from, t) => {
    const r = applyTransition(from, t);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/^Cannot /);
  });

  it('moves between testing and release by completeness only', () => {
    expect(statusAfterResults('FOR_TESTING', true)).toBe('FOR_RELEASE');
    expect(statusAfterResults('FOR_RELEASE', false)).toBe('FOR_TESTING');
    expect(statusAfterResults('RELEASED', false)).toBe('RELEASED');
    expect(statusAfterResults('PENDING_REVIEW', true)).toBe('PENDING_REVIEW');
  });

  it('counts an analysis complete with a value and a remark', () => {
    expect(isAnalysisComplete({ value: '12 cfu/g', remark: 'negative' })).toBe(true);
    expect(isAnalysisComplete({ value: ' ', remark: 'negative' })).toBe(false);
    expect(isAnalysisComplete({ value: 'x', remark: null })).toBe(false);
    expect(isAnalysisComplete({ value: 'x', remark: '' })).toBe(false);
  });
});
