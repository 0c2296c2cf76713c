// The problems of an import as a person reads them: identical messages once with their lines
// ("line 3-100,001: ... (99,999 lines)"), and a bounded number of lines on the terminal (--json
// lists every problem).
import type { CsvProblem } from '../server/domain/resultsCsv.js';
import { formatCount } from './table.js';

/** Groups shown before "... and N more". */
export const SHOWN_GROUPS = 20;
const SHOWN_RANGES = 10;

/** [3, 4, 5, 9] -> "3-5, 9"; long lists end with "and N more". */
export function lineRanges(lines: readonly number[]): string {
  const ranges: string[] = [];
  for (let i = 0; i < lines.length; ) {
    let j = i;
    while (j + 1 < lines.length && lines[j + 1] === lines[j] + 1) j += 1;
    ranges.push(i === j ? formatCount(lines[i]) : `${formatCount(lines[i])}-${formatCount(lines[j])}`);
    i = j + 1;
  }
  return ranges.length <= SHOWN_RANGES ? ranges.join(', ') : `${ranges.slice(0, SHOWN_RANGES).join(', ')} and ${formatCount(ranges.length - SHOWN_RANGES)} more ranges`;
}

/** One line per distinct message, in the order of its first line. */
export function groupedProblemLines(problems: readonly CsvProblem[], prefix = ''): string[] {
  const groups = new Map<string, number[]>();
  for (const p of problems) {
    const lines = groups.get(p.message);
    if (lines) lines.push(p.line);
    else groups.set(p.message, [p.line]);
  }
  const text = [...groups].map(([message, lines]) =>
    lines.length === 1 ? `${prefix}line ${formatCount(lines[0])}: ${message}` : `${prefix}line ${lineRanges(lines)}: ${message} (${formatCount(lines.length)} lines)`,
  );
  if (text.length <= SHOWN_GROUPS) return text;
  const hidden = [...groups.values()].slice(SHOWN_GROUPS).reduce((n, lines) => n + lines.length, 0);
  return [...text.slice(0, SHOWN_GROUPS), `${prefix}... and ${formatCount(hidden)} more on other lines (--json lists every one)`];
}
