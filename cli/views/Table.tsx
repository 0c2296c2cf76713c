// A table on the terminal: bold header, dim rule, optional colour per cell. It fits the terminal's
// width as the plain text does (cli/table.ts): columns that do not fit go to a following part, a
// column too wide alone is wrapped, and a note says the table was split; nothing is cut.
import { Box, Text } from 'ink';
import { terminalSafe } from '../safeText.js';
import { COLUMN_GAP, layoutTable, padCell, splitNote, wrapCell, type Column, type Row } from '../table.js';

export interface TableProps {
  title?: string;
  columns: readonly Column[];
  rows: readonly Row[];
  /** Colour of one cell (an Ink colour name), e.g. statuses or positive counts. */
  cellColor?: (row: number, column: number) => string | undefined;
  /** Shown instead of an empty table. */
  emptyText?: string;
  /** The width to fit (the terminal's columns); no limit when left out. */
  width?: number;
}

export function Table({ title, columns, rows, cellColor, emptyText, width }: TableProps) {
  const blocks = layoutTable(columns, rows, width);
  const note = splitNote(blocks, width);
  return (
    <Box flexDirection="column">
      {title ? <Text bold>{terminalSafe(title)}</Text> : null}
      {rows.length === 0 && emptyText ? (
        <Text>{terminalSafe(emptyText)}</Text>
      ) : (
        <>
          {note ? <Text dimColor>{wrapCell(note, width!).join('\n')}</Text> : null}
          {blocks.map((block, b) => (
            <Box key={b} flexDirection="column" marginTop={b > 0 || note ? 1 : 0}>
              <Text bold>{block.columns.map((c, k) => padCell(columns[c].header, block.widths[k], columns[c].align)).join(COLUMN_GAP).trimEnd()}</Text>
              <Text dimColor>{block.widths.map((w) => '─'.repeat(w)).join(COLUMN_GAP)}</Text>
              {block.lines.map((line, l) => (
                <Text key={l}>
                  {block.columns.map((c, k) => (
                    <Text key={k} color={cellColor?.(line.row, c)}>
                      {k === block.columns.length - 1 ? padCell(line.cells[k], block.widths[k], columns[c].align).trimEnd() : padCell(line.cells[k], block.widths[k], columns[c].align)}
                      {k < block.columns.length - 1 ? COLUMN_GAP : ''}
                    </Text>
                  ))}
                </Text>
              ))}
            </Box>
          ))}
        </>
      )}
    </Box>
  );
}
