// One request as `labctl requests show` prints it: its fields, its samples and its results. The same
// document renders with Ink on a terminal and as plain text otherwise.
import { Box, Text } from 'ink';
import { terminalSafe } from '../safeText.js';
import { labelWidth, type RequestDocument } from './requestDetailsText.js';
import { Table } from './Table.js';

export function RequestDetails({ doc, width: tableWidth }: { doc: RequestDocument; width?: number }) {
  const width = labelWidth(doc);
  return (
    <Box flexDirection="column">
      <Text bold>{terminalSafe(doc.title)}</Text>
      {doc.fields.map(([label, value]) => (
        <Text key={label}>
          <Text dimColor>{`${label}:`.padEnd(width)}</Text> {terminalSafe(value)}
        </Text>
      ))}
      {doc.tables.map((t) => (
        <Box key={t.title} marginTop={1}>
          <Table {...t} width={tableWidth} />
        </Box>
      ))}
    </Box>
  );
}
