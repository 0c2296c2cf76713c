// One request as `labctl requests show` prints it: its fields, its samples and its results. The same
// document renders with Ink on a terminal and as plain text otherwise.
import { Box, Text } from 'ink';
import { formatTable } from '../table.js';
import { Table, type TableProps } from './Table.js';

export interface RequestDocument {
  title: string;
  fields: ReadonlyArray<readonly [label: string, value: string]>;
  tables: TableProps[];
}

const labelWidth = (doc: RequestDocument) => doc.fields.reduce((w, [label]) => Math.max(w, label.length + 1), 0);

export function RequestDetails({ doc }: { doc: RequestDocument }) {
  const width = labelWidth(doc);
  return (
    <Box flexDirection="column">
      <Text bold>{doc.title}</Text>
      {doc.fields.map(([label, value]) => (
        <Text key={label}>
          <Text dimColor>{`${label}:`.padEnd(width)}</Text> {value}
        </Text>
      ))}
      {doc.tables.map((t) => (
        <Box key={t.title} marginTop={1}>
          <Table {...t} />
        </Box>
      ))}
    </Box>
  );
}

export function requestDetailsText(doc: RequestDocument): string {
  const width = labelWidth(doc);
  const parts = [doc.title, ...doc.fields.map(([label, value]) => `${`${label}:`.padEnd(width)} ${value}`)];
  for (const t of doc.tables) {
    parts.push('', t.title ?? '', t.rows.length === 0 && t.emptyText ? t.emptyText : formatTable(t.columns, t.rows));
  }
  return parts.join('\n');
}
