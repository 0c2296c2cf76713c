/**
 * The top of a count axis and its ticks: a step of 1, 2 or 5 x 10^k (whole numbers only) giving at
 * most `ticks` intervals, the top the first multiple of the step at or above `value` (at least 1).
 */
export function countAxis(value: number, ticks = 4): { max: number; ticks: number[] } {
  const target = Math.max(1, Math.ceil(value));
  const base = 10 ** Math.floor(Math.log10(target)) / 10;
  const step = [1, 2, 5, 10, 20, 50, 100].map((m) => m * base).find((s) => Number.isInteger(s) && s * ticks >= target)!;
  const max = Math.ceil(target / step) * step;
  return { max, ticks: Array.from({ length: max / step + 1 }, (_, i) => i * step) };
}
