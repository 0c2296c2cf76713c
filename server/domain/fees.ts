// Fee and completion-date arithmetic for a testing request. The server recomputes both at submission
// (the browser's figure is never trusted); the form shows the same numbers live.
import { findAnalyte, type Analyte } from './catalog.js';

export interface FeeInput {
  tests: readonly string[];
  sampleCount: number;
  gramPositiveAst?: string | null;
  gramNegativeAst?: string | null;
}

export interface FeeLine {
  code: string;
  label: string;
  unitPrice: number;
  quantity: number;
  amount: number;
}

export interface FeeEstimate {
  lines: FeeLine[];
  total: number;
}

const filled = (text: string | null | undefined) => typeof text === 'string' && text.trim() !== '';

/**
 * Culture and Sensitivity is priced per AST panel (gram positive, gram negative); with neither panel
 * named, one panel is charged.
 */
export function cultureAndSensitivityPanels(gramPositiveAst?: string | null, gramNegativeAst?: string | null): number {
  return Math.max(1, Number(filled(gramPositiveAst)) + Number(filled(gramNegativeAst)));
}

function knownAnalytes(tests: readonly string[]): Analyte[] {
  const unique = [...new Set(tests)];
  return unique.map(findAnalyte).filter((a): a is Analyte => a !== undefined);
}

export function estimateFee(input: FeeInput): FeeEstimate {
  const samples = Math.max(0, Math.floor(input.sampleCount));
  const lines = knownAnalytes(input.tests).map((a) => {
    const panels = a.code === 'cultureAndSensitivityTest'
      ? cultureAndSensitivityPanels(input.gramPositiveAst, input.gramNegativeAst)
      : 1;
    const quantity = samples * panels;
    return { code: a.code, label: a.orderLabel, unitPrice: a.price, quantity, amount: a.price * quantity };
  });
  return { lines, total: lines.reduce((sum, l) => sum + l.amount, 0) };
}

/** Longest turnaround, in working days, of the ticked tests (0 when none is known). */
export function turnaroundDays(tests: readonly string[]): number {
  return knownAnalytes(tests).reduce((max, a) => Math.max(max, a.turnaroundDays), 0);
}

const isWeekend = (d: Date) => d.getUTCDay() === 0 || d.getUTCDay() === 6;

/**
 * The date `days` working days (Monday to Friday) after `start` (YYYY-MM-DD), as YYYY-MM-DD.
 * Day 0 is the start itself, moved to the next working day when it falls on a weekend.
 */
export function addWorkingDays(start: string, days: number): string {
  const d = new Date(`${start}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) throw new RangeError(`Not a date: ${start}`);
  while (isWeekend(d)) d.setUTCDate(d.getUTCDate() + 1);
  let left = days;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    if (!isWeekend(d)) left -= 1;
  }
  return d.toISOString().slice(0, 10);
}

/** Expected completion date of a request submitted on `submissionDate` (YYYY-MM-DD). */
export function expectedCompletionDate(submissionDate: string, tests: readonly string[]): string {
  return addWorkingDays(submissionDate, turnaroundDays(tests));
}

/** PHP amount with thousands separators, e.g. 1500 -> "1,500". */
export function formatPhp(amount: number): string {
  return amount.toLocaleString('en-US', { maximumFractionDigits: 2 });
}
