// One request as `labctl requests show` prints it, as data and as plain text (pipes, files); the
// Ink view (RequestDetails.tsx) draws the same document on a terminal.
import { formatTable } from '../table.js';
import type { TableProps } from './Table.js';

export interface RequestDocument {
  title: string;
  fields: ReadonlyArray<readonly [label: string, value: string]>;
  tables: TableProps[];
}

export const labelWidth = (doc: RequestDocument) => doc.fields.reduce((w, [label]) => Math.max(w, label.length + 1), 0);

/** The document as plain text, its tables fitted to `width` (see cli/table.ts) when given. */
export function requestDetailsText(doc: RequestDocument, tableWidth?: number): string {
  const width = labelWidth(doc);
  const parts = [doc.title, ...doc.fields.map(([label, value]) => `${`${label}:`.padEnd(width)} ${value}`)];
  for (const t of doc.tables) {
    parts.push('', t.title ?? '', t.rows.length === 0 && t.emptyText ? t.emptyText : formatTable(t.columns, t.rows, tableWidth));
  }
  return parts.join('\n');
}
