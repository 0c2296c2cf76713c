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

/**
 * One part of a table as it fits the width: the columns it shows (indexes into the table's
 * columns, the first column repeated in every part), their widths, and its lines (a row takes
 * several lines when a cell is wrapped).
 */
export interface TableBlock {
  columns: number[];
  widths: number[];
  lines: Array<{ row: number; cells: string[] }>;
}

/** The narrowest a wrapped column gets: narrower, its words would break into unreadable pieces. */
const MIN_WRAPPED = 12;

/** `text` in pieces of at most `width` characters, broken after a space when there is one. */
export function wrapCell(text: string, width: number): string[] {
  if (text.length <= width) return [text];
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > width) {
    const space = rest.lastIndexOf(' ', width);
    const cut = space > 0 ? space : width;
    pieces.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(space > 0 ? cut + 1 : cut);
  }
  if (rest) pieces.push(rest);
  return pieces;
}

/**
 * A table laid out to fit `width` characters (no limit when undefined): every column and every
 * character is kept. Columns that do not fit beside the others go to a following part (with the
 * first column repeated, so each line still names its row); a column too wide even alone is
 * wrapped onto further lines. Nothing is ever cut.
 */
export function layoutTable(columns: readonly Column[], rawRows: readonly Row[], width?: number): TableBlock[] {
  const rows = safeRows(rawRows);
  const natural = columnWidths(columns, rows);
  const total = natural.reduce((sum, w) => sum + w, 0) + COLUMN_GAP.length * (columns.length - 1);
  const oneLine = (indexes: number[], widths: number[]): TableBlock => ({
    columns: indexes,
    widths,
    lines: rows.map((r, row) => ({ row, cells: indexes.map((i) => r[i] ?? '') })),
  });
  if (width === undefined || total <= width || columns.length === 0) return [oneLine(columns.map((_, i) => i), natural)];

  // The first column names the row: kept in every part, wrapped if it would take more than half.
  const keyWidth = Math.max(Math.min(natural[0], Math.floor(width / 2)), Math.min(natural[0], MIN_WRAPPED));
  const room = Math.max(width - keyWidth - COLUMN_GAP.length, MIN_WRAPPED);
  const parts: Array<{ indexes: number[]; widths: number[] }> = [];
  let part = { indexes: [0], widths: [keyWidth] };
  let used = 0;
  for (let i = 1; i < columns.length; i++) {
    const w = Math.min(natural[i], room);
    const needed = (used === 0 ? 0 : COLUMN_GAP.length) + w;
    if (used > 0 && used + needed > room) {
      parts.push(part);
      part = { indexes: [0], widths: [keyWidth] };
      used = 0;
    }
    part.indexes.push(i);
    part.widths.push(w);
    used += used === 0 ? w : needed;
  }
  parts.push(part);
  const even = evenParts(parts.length, columns.length - 1, (i) => Math.min(natural[i], room), room, keyWidth);
  return (even ?? parts).map(({ indexes, widths }) => ({
    columns: indexes,
    widths,
    lines: rows.flatMap((r, row) => {
      const pieces = indexes.map((i, k) => wrapCell(r[i] ?? '', widths[k]));
      const height = Math.max(...pieces.map((p) => p.length));
      return Array.from({ length: height }, (_, line) => ({ row, cells: pieces.map((p) => p[line] ?? '') }));
    }),
  }));
}

/**
 * The `count` parts of the columns after the first, as even as they fit (later parts one column
 * more when they do not share out evenly), so a year reads January to June, then July to December
 * and the Total; null when an even share does not fit `room`.
 */
function evenParts(count: number, rest: number, widthOf: (i: number) => number, room: number, keyWidth: number): Array<{ indexes: number[]; widths: number[] }> | null {
  if (count < 2) return null;
  const parts: Array<{ indexes: number[]; widths: number[] }> = [];
  let next = 1;
  for (let p = 0; p < count; p++) {
    const size = Math.floor(rest / count) + (p >= count - (rest % count) ? 1 : 0);
    const indexes = Array.from({ length: size }, (_, k) => next + k);
    next += size;
    const used = indexes.reduce((sum, i) => sum + widthOf(i), 0) + COLUMN_GAP.length * (size - 1);
    if (used > room) return null;
    parts.push({ indexes: [0, ...indexes], widths: [keyWidth, ...indexes.map(widthOf)] });
  }
  return parts;
}

/** What is said above a table that had to be split to fit: nobody should think columns are missing. */
export const splitNote = (blocks: readonly TableBlock[], width: number | undefined) =>
  blocks.length > 1 ? `(${blocks.length} parts to fit ${width} columns; a pipe or --json keeps one line per row)` : undefined;

/** A plain-text table: header, a rule, the rows; split into parts to fit `width` when given. */
export function formatTable(columns: readonly Column[], rawRows: readonly Row[], width?: number): string {
  const blocks = layoutTable(columns, rawRows, width);
  const note = splitNote(blocks, width);
  const text = blocks.map((b) => {
    const shown = b.columns.map((i) => columns[i]);
    const rule = b.widths.map((w) => '-'.repeat(w)).join(COLUMN_GAP);
    return [tableLine(shown, b.widths, shown.map((c) => c.header)), rule, ...b.lines.map((l) => tableLine(shown, b.widths, l.cells))].join('\n');
  });
  return [...(note ? [wrapCell(note, width!).join('\n')] : []), ...text].join('\n\n');
}

/** 12345 -> "12,345". */
export const formatCount = (n: number) => n.toLocaleString('en-US');
