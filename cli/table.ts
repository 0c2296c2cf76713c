// Column layout shared by the plain-text tables (pipes, files) and the Ink tables (terminal), so both
// line up the same way.
import { terminalSafe } from './safeText.js';

export interface Column {
  header: string;
  /** Numbers read best right-aligned. */
  align?: 'left' | 'right';
}

export type Row = readonly string[];

export const COLUMN_GAP = '  ';

/** Cells as they are printed: control characters escaped (so widths are counted on what shows). */
export const safeRows = (rows: readonly Row[]): Row[] => rows.map((r) => r.map(terminalSafe));

export function columnWidths(columns: readonly Column[], rows: readonly Row[]): number[] {
  return columns.map((c, i) => rows.reduce((w, r) => Math.max(w, (r[i] ?? '').length), c.header.length));
}

export function padCell(text: string, width: number, align: Column['align'] = 'left'): string {
  return align === 'right' ? text.padStart(width) : text.padEnd(width);
}

/** One table line: cells padded to their column and joined, without trailing spaces. */
function tableLine(columns: readonly Column[], widths: readonly number[], cells: Row): string {
  return columns.map((c, i) => padCell(cells[i] ?? '', widths[i], c.align)).join(COLUMN_GAP).trimEnd();
}

/** A plain-text table: header, a rule, the rows. */
export function formatTable(columns: readonly Column[], rawRows: readonly Row[]): string {
  const rows = safeRows(rawRows);
  const widths = columnWidths(columns, rows);
  const rule = widths.map((w) => '-'.repeat(w)).join(COLUMN_GAP);
  return [tableLine(columns, widths, columns.map((c) => c.header)), rule, ...rows.map((r) => tableLine(columns, widths, r))].join('\n');
}

/** 12345 -> "12,345". */
export const formatCount = (n: number) => n.toLocaleString('en-US');
