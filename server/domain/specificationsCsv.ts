// The CSV of `labctl specs export` / `labctl specs import` (issue 26): one row per specification
// version. Pure: parsing answers each row's draft or its problems, by line number.
import { parse } from 'csv-parse/sync';
import { csvLines, inertText } from './csv.js';
import { SpecificationDraftSchema, type Specification, type SpecificationDraft } from './specifications.js';

/** The columns, in order: id and supersedes name versions; createdBy/createdAt are written by the server. */
export const SPEC_CSV_COLUMNS = [
  'id', 'analyte', 'version', 'sampleCategory', 'species', 'purpose', 'kind', 'unit', 'lod', 'loq', 'lowerLimit', 'upperLimit', 'warningLevel',
  'n', 'c', 'm', 'M', 'source', 'validFrom', 'validTo', 'supersedes', 'createdBy', 'createdAt',
] as const;

const NUMBERS = new Set(['lod', 'loq', 'lowerLimit', 'upperLimit', 'warningLevel', 'n', 'c', 'm', 'M']);

export function specificationsCsv(specs: readonly Specification[]): string {
  const cell = (v: string | number | null | undefined) => (v == null ? '' : typeof v === 'number' ? v : inertText(v));
  return csvLines([
    SPEC_CSV_COLUMNS,
    ...specs.map((s) => SPEC_CSV_COLUMNS.map((c) => cell(c === 'supersedes' ? null : s[c]))),
  ]);
}

export interface SpecCsvRow {
  line: number;
  /** The stored version the row repeats (empty for a new one). */
  id: number | null;
  supersedes: number | null;
  draft: SpecificationDraft;
}

export interface SpecCsvProblem { line: number; message: string }

/** Parses the file: every row's draft, or every problem with its line (header problems on line 1). */
export function parseSpecificationsCsv(text: string): { rows: SpecCsvRow[]; problems: SpecCsvProblem[] } {
  let records: string[][];
  try {
    records = parse(text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'), { relax_column_count: true, skip_empty_lines: false });
  } catch (err) {
    return { rows: [], problems: [{ line: 1, message: `not a CSV file: ${(err as Error).message}` }] };
  }
  const [header = [], ...body] = records;
  const names = header.map((h) => h.trim());
  const missing = SPEC_CSV_COLUMNS.filter((c) => !['id', 'version', 'supersedes', 'createdBy', 'createdAt'].includes(c) && !names.includes(c));
  const unknown = names.filter((n) => !(SPEC_CSV_COLUMNS as readonly string[]).includes(n));
  if (missing.length || unknown.length) {
    const parts = [missing.length ? `missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}` : '', unknown.length ? `unknown column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}` : ''];
    return { rows: [], problems: [{ line: 1, message: `the header must name the columns ${SPEC_CSV_COLUMNS.join(',')}: ${parts.filter(Boolean).join('; ')}` }] };
  }
  const rows: SpecCsvRow[] = [];
  const problems: SpecCsvProblem[] = [];
  body.forEach((record, i) => {
    const line = i + 2;
    if (record.every((v) => v.trim() === '')) return;
    const raw: Record<string, string> = Object.fromEntries(names.map((n, k) => [n, (record[k] ?? '').trim().replace(/^'(?=[=+\-@])/, '')]));
    const value = (name: string): unknown => {
      const v = raw[name] ?? '';
      if (v === '') return null;
      return NUMBERS.has(name) && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v) ? Number(v) : v;
    };
    const id = (name: 'id' | 'supersedes') => {
      const v = raw[name] ?? '';
      if (v === '') return null;
      if (!/^\d{1,9}$/.test(v)) problems.push({ line, message: `${name}: must be a specification id` });
      return Number(v);
    };
    const draft = SpecificationDraftSchema.safeParse(Object.fromEntries([...SpecificationDraftSchema.keyof().options].map((k) => [k, value(k)])));
    const rowId = id('id');
    const supersedes = id('supersedes');
    if (!draft.success) problems.push({ line, message: draft.error.issues.map((issue) => issue.message).join('; ') });
    else rows.push({ line, id: rowId, supersedes, draft: draft.data });
  });
  return { rows, problems };
}
