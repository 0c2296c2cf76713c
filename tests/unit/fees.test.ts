import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addWorkingDays, cultureAndSensitivityPanels, estimateFee, expectedCompletionDate, formatPhp, turnaroundDays } from '../../server/domain/fees.js';

describe('estimateFee', () => {
  it('charges each ticked test once per sample', () => {
    const fee = estimateFee({ tests: ['standardPlateCount', 'chloramphenicol', 'dog'], sampleCount: 2 });
    expect(fee.total).toBe(2 * (150 + 1500 + 1500));
    expect(fee.lines.map((l) => [l.code, l.quantity, l.amount])).toEqual([
      ['standardPlateCount', 2, 300],
      ['chloramphenicol', 2, 3000],
      ['dog', 2, 3000],
    ]);
  });

  it('charges culture and sensitivity per AST panel, at least one', () => {
    const base = { tests: ['cultureAndSensitivityTest'], sampleCount: 3 };
    expect(estimateFee(base).total).toBe(4500);
    expect(estimateFee({ ...base, gramPositiveAst: 'panel A' }).total).toBe(4500);
    expect(estimateFee({ ...base, gramPositiveAst: 'A', gramNegativeAst: 'B' }).total).toBe(9000);
    expect(cultureAndSensitivityPanels('  ', '')).toBe(1);
  });

  it('ignores unknown codes and duplicates', () => {
    expect(estimateFee({ tests: ['eColi', 'eColi', 'nope'], sampleCount: 1 }).total).toBe(350);
  });

  it('is zero without samples or tests', () => {
    expect(estimateFee({ tests: [], sampleCount: 4 }).total).toBe(0);
    expect(estimateFee({ tests: ['eColi'], sampleCount: 0 }).total).toBe(0);
  });
});

describe('working days', () => {
  it('skips weekends', () => {
    // 2026-11-20 is a Friday.
    expect(addWorkingDays('2026-11-20', 1)).toBe('2026-11-23');
    expect(addWorkingDays('2026-11-20', 5)).toBe('2026-11-27');
    expect(addWorkingDays('2026-11-16', 4)).toBe('2026-11-20');
  });

  it('starts a weekend submission on the next Monday', () => {
    expect(addWorkingDays('2026-11-21', 0)).toBe('2026-11-23');
    expect(addWorkingDays('2026-11-22', 1)).toBe('2026-11-24');
  });

  it('rejects a non-date', () => {
    expect(() => addWorkingDays('soon', 2)).toThrow(RangeError);
  });

  it('never lands on a weekend and moves forward by at least the calendar span', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }), fc.integer({ min: 0, max: 40 }), (date, days) => {
        const start = date.toISOString().slice(0, 10);
        const due = addWorkingDays(start, days);
        const dueDay = new Date(`${due}T00:00:00Z`).getUTCDay();
        expect(dueDay).not.toBe(0);
        expect(dueDay).not.toBe(6);
        expect(due >= start).toBe(true);
      }),
    );
  });

  it('uses the slowest ticked test for the completion date', () => {
    expect(turnaroundDays(['dog', 'chloramphenicol', 'betaLactams'])).toBe(6);
    expect(turnaroundDays(['eColiAndeColi0O157', 'dog'])).toBe(15);
    expect(expectedCompletionDate('2026-11-16', ['dog'])).toBe('2026-11-23');
  });
});

it('formats PHP with thousands separators', () => {
  expect(formatPhp(1500)).toBe('1,500');
  expect(formatPhp(123456)).toBe('123,456');
});
