// The results CSV that `labctl results import` reads: parsing and every row check, pure. Checks that
// need the database's view of a request (its status, samples and ticked tests) take that view as
// input, so one pass reports every problem of a file with its line number before anything is written.
import { parse, type CsvError } from 'csv-parse/sync';
import { ANALYTE_CODES, GROUP_LABELS, findAnalyte, type Group } from './catalog.js';
import { can, type Actor } from './policies.js';
import { STATUS_DISPLAY, acceptsResults, type RequestStatus } from './requestStatus.js';
import { CONTROL_CHARACTER_MESSAGE, ResultFields, hasControlCharacter, normalizeResult, type Remark } from './resultShape.js';

export const RESULTS_CSV_COLUMNS = ['control_number', 'sample_position', 'test_code', 'value', 'remark', 'analysis_date'] as const;
export const RESULTS_CSV_HEADER = RESULTS_CSV_COLUMNS.join(',');

export interface ResultsCsvRow {
  /** Line of the file where the row starts (the header is line 1). */
  line: number;
  controlNumber: string;
  samplePosition: number;
  testCode: string;
  value: string;
  remark: Remark | null;
  analysisDate: string | null;
}

export interface CsvProblem {
  line: number;
  message: string;
}

export interface ParsedResultsCsv {
  /** Rows without problems of their own. */
  rows: ResultsCsvRow[];
  problems: CsvProblem[];
  /** Data rows in the file (the header and blank lines not counted). */
  dataRows: number;
}

const CODES_BY_LOWER = new Map(ANALYTE_CODES.map((c) => [c.toLowerCase(), c]));

/** A field quoted in a message, shortened so a long value does not flood the report. */
const shown = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}...` : text);

const COLUMN_OF_FIELD = { value: 'value', remark: 'remark', analysisDate: 'analysis_date' } as const;

function checkFields(line: number, fields: string[]): { row?: ResultsCsvRow; problems: string[] } {
  if (fields.length !== RESULTS_CSV_COLUMNS.length) {
    return { problems: [`expected ${RESULTS_CSV_COLUMNS.length} columns (${RESULTS_CSV_HEADER}), found ${fields.length}`] };
  }
  const problems: string[] = [];
  const [controlNumber, position, testCode, value, remark, date] = fields.map((f) => f.trim());
  if (!controlNumber) problems.push('control_number is empty');
  // It is looked up in the database, which may refuse a NUL in a query as it refuses one in a value.
  else if (hasControlCharacter(controlNumber)) problems.push(`control_number ${CONTROL_CHARACTER_MESSAGE} (got ${shown(controlNumber)})`);
  const samplePosition = Number(position);
  if (!/^[0-9]+$/.test(position) || samplePosition < 1) problems.push(`sample_position must be a whole number from 1 (got ${shown(position)})`);
  if (!findAnalyte(testCode)) {
    const near = CODES_BY_LOWER.get(testCode.toLowerCase());
    problems.push(`unknown test_code ${shown(testCode)}${near ? ` (did you mean ${near}?)` : ''}`);
  }
  // An empty value would clear a result on the tester screens; an import only enters results.
  if (!value) problems.push('value is empty');
  const cells = { value, remark, analysisDate: date };
  const parsed = ResultFields.safeParse({ ...cells, remark: remark.toLowerCase() });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof typeof cells;
      // The screens' wording of an empty remark ('') means nothing in a CSV cell.
      const message = field === 'remark' ? 'must be positive, negative or empty' : issue.message;
      problems.push(`${COLUMN_OF_FIELD[field]} ${message} (got ${shown(cells[field])})`);
    }
  }
  if (problems.length || !parsed.success) return { problems };
  const result = normalizeResult(parsed.data);
  return { problems, row: { line, controlNumber, samplePosition, testCode, value: result.value!, remark: result.remark, analysisDate: result.analysisDate } };
}

/**
 * Parses a results CSV (header row required, UTF-8, optional BOM, CRLF or LF) and checks each row on
 * its own: field formats, known test codes, and one row per sample and test within the file.
 */
export function parseResultsCsv(text: string): ParsedResultsCsv {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // Line counting of csv-parse is off by one after blank CRLF lines; plain LF counts right.
    records = parse(text.replace(/\r\n?/g, '\n'), { info: true, bom: true, relax_column_count: true, skip_empty_lines: true }) as unknown as typeof records;
  } catch (err) {
    const e = err as CsvError & { lines?: number };
    return { rows: [], dataRows: 0, problems: [{ line: e.lines ?? 1, message: `not a readable CSV file: ${e.message}` }] };
  }
  if (records.length === 0) return { rows: [], dataRows: 0, problems: [{ line: 1, message: `the file is empty; the first line must be ${RESULTS_CSV_HEADER}` }] };

  // A record ends on info.lines; quoted fields spanning lines move its first line back.
  const firstLine = (r: (typeof records)[number]) => r.info.lines - r.record.reduce((n, f) => n + (f.match(/\n/g)?.length ?? 0), 0);

  const [header, ...data] = records;
  const headerText = header.record.map((h) => h.trim().toLowerCase()).join(',');
  if (headerText !== RESULTS_CSV_HEADER) {
    return { rows: [], dataRows: 0, problems: [{ line: firstLine(header), message: `the first line must be the header ${RESULTS_CSV_HEADER} (found ${header.record.join(',')})` }] };
  }

  const rows: ResultsCsvRow[] = [];
  const problems: CsvProblem[] = [];
  const seen = new Map<string, number>();
  for (const r of data) {
    const line = firstLine(r);
    const checked = checkFields(line, r.record);
    for (const message of checked.problems) problems.push({ line, message });
    if (!checked.row) continue;
    const key = `${checked.row.controlNumber}\u0000${checked.row.samplePosition}\u0000${checked.row.testCode}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      problems.push({ line, message: `the same sample and test as line ${earlier}` });
      continue;
    }
    seen.set(key, line);
    rows.push(checked.row);
  }
  return { rows, problems, dataRows: data.length };
}

/** What the database says about a request a CSV names. */
export interface ImportTarget {
  requestId: number;
  controlNumber: string;
  status: RequestStatus;
  /** Codes of the ticked tests. */
  tests: readonly string[];
  /** Sample id by position (1..n). */
  sampleIds: ReadonlyMap<number, number>;
}

export interface ResolvedResult extends ResultsCsvRow {
  requestId: number;
  sampleId: number;
  group: Group;
}

/**
 * Checks parsed rows against the requests they name and the acting tester: the request exists and
 * is open for results, the test was ordered and belongs to the tester's discipline, the sample
 * exists. Returns the rows with their database ids, or every problem found.
 */
export function resolveResultRows(
  rows: readonly ResultsCsvRow[],
  targets: ReadonlyMap<string, ImportTarget>,
  actor: Actor,
): { entries: ResolvedResult[]; problems: CsvProblem[] } {
  const entries: ResolvedResult[] = [];
  const problems: CsvProblem[] = [];
  for (const row of rows) {
    const target = targets.get(row.controlNumber);
    if (!target) {
      problems.push({ line: row.line, message: `no request has control number ${row.controlNumber}` });
      continue;
    }
    const analyte = findAnalyte(row.testCode)!;
    const rowProblems: string[] = [];
    if (!acceptsResults(target.status)) {
      rowProblems.push(`request ${target.controlNumber} is ${STATUS_DISPLAY[target.status]}: results are accepted only while it is FOR TESTING or FOR RELEASE`);
    }
    if (!can(actor, 'results:write', { group: analyte.group })) {
      rowProblems.push(`${row.testCode} is one of the ${GROUP_LABELS[analyte.group]}, which a ${actor.role} account may not enter`);
    }
    if (!target.tests.includes(row.testCode)) rowProblems.push(`${row.testCode} was not ordered on request ${target.controlNumber}`);
    const sampleId = target.sampleIds.get(row.samplePosition);
    if (sampleId === undefined) {
      rowProblems.push(`request ${target.controlNumber} has no sample ${row.samplePosition} (it has ${target.sampleIds.size})`);
    }
    for (const message of rowProblems) problems.push({ line: row.line, message });
    if (rowProblems.length === 0) entries.push({ ...row, requestId: target.requestId, sampleId: sampleId!, group: analyte.group });
  }
  return { entries, problems };
}

/** Problems in file order, then by message, for a stable report. */
export function sortProblems(problems: CsvProblem[]): CsvProblem[] {
  return [...problems].sort((a, b) => a.line - b.line || a.message.localeCompare(b.message));
}
