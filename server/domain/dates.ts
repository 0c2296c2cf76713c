// Calendar dates as every payload, CSV file and screen writes them: YYYY-MM-DD. Pure.

/** A day in milliseconds (UTC days: no daylight saving). */
export const DAY_MS = 86_400_000;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
let lastIsoDate: string | undefined;

/** Whether `text` is a real calendar date written YYYY-MM-DD (2026-02-30 is not). */
export function isIsoDate(text: string): boolean {
  // A file of results mostly repeats a few dates: the last real one is remembered.
  if (text === lastIsoDate) return true;
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (d.toISOString().slice(0, 10) !== text) return false;
  lastIsoDate = text;
  return true;
}
