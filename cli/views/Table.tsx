// A table on the terminal: bold header, dim rule, optional colour per cell. A row wider than the
// terminal is cut at its edge rather than wrapped into an unreadable zigzag (piped output is plain
// text and keeps every column).
import { Box, Text } from 'ink';
import { terminalSafe } from '../safeText.js';
import { COLUMN_GAP, columnWidths, padCell, safeRows, type Column, type Row } from '../table.js';

export interface TableProps {
  title?: string;
  columns: readonly Column[];
  rows: readonly Row[];
  /** Colour of one cell (an Ink colour name), e.g. statuses or positive counts. */
  cellColor?: (row: number, column: number) => string | undefined;
  /** Shown instead of an empty table. */
  emptyText?: string;
}

export function Table({ title, columns, rows: rawRows, cellColor, emptyText }: TableProps) {
  const rows = safeRows(rawRows);
  const widths = columnWidths(columns, rows);
  return (
    <Box flexDirection="column">
      {title ? <Text bold>{terminalSafe(title)}</Text> : null}
      {rows.length === 0 && emptyText ? (
        <Text>{terminalSafe(emptyText)}</Text>
      ) : (
        <>
          <Text bold wrap="truncate-end">{columns.map((c, i) => padCell(c.header, widths[i], c.align)).join(COLUMN_GAP)}</Text>
          <Text dimColor wrap="truncate-end">{widths.map((w) => '─'.repeat(w)).join(COLUMN_GAP)}</Text>
          {rows.map((row, r) => (
            <Text key={r} wrap="truncate-end">
              {columns.map((c, i) => (
                <Text key={i} color={cellColor?.(r, i)}>
                  {padCell(row[i] ?? '', widths[i], c.align)}
                  {i < columns.length - 1 ? COLUMN_GAP : ''}
                </Text>
              ))}
            </Text>
          ))}
        </>
      )}
    </Box>
  );
}
