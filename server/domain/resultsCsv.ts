// The results CSV that `labctl results import` reads: parsing and every row check, pure. Checks that
// need the database's view of a request (its status, samples and ticked tests) take that view as
// input, so one pass reports every problem of a file with its line number before anything is written.
import { parse, type CsvError } from 'csv-parse/sync';
import { ANALYTE_CODES, GROUP_LABELS, findAnalyte, type Group } from './catalog.js';
import { can, type Actor } from './policies.js';
import { STATUS_DISPLAY, acceptsResults, type RequestStatus } from './requestStatus.js';
import { normalizeResult, parseResultFields, type Remark } from './resultShape.js';
import { invalidCharacterIn } from './wellFormedText.js';

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
  /** The column as the file names it, where a cell is at fault (instrument files). */
  column?: string;
}

export interface ParsedResultsCsv {
  /** Rows without problems of their own. */
  rows: ResultsCsvRow[];
  problems: CsvProblem[];
  /** Data rows in the file (the header, blank lines and rows of empty cells not counted). */
  dataRows: number;
  /** Things worth a look that do not stop the import. */
  warnings: CsvProblem[];
}

const CODES_BY_LOWER = new Map(ANALYTE_CODES.map((c) => [c.toLowerCase(), c]));

/** A field quoted in a message, shortened so a long value does not flood the report. */
const shown = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}...` : text);

const COLUMN_OF_FIELD = { value: 'value', remark: 'remark', analysisDate: 'analysis_date' } as const;

function checkFields(line: number, fields: string[], header: string): { row?: ResultsCsvRow; problems: string[] } {
  if (fields.length !== RESULTS_CSV_COLUMNS.length) {
    return { problems: [`expected ${RESULTS_CSV_COLUMNS.length} columns (${header}), found ${fields.length}`] };
  }
  const problems: string[] = [];
  const [controlNumber, position, testCode, value, remark, date] = fields.map((f) => f.trim());
  // It is looked up in the database, which may refuse a NUL in a query as it refuses one in a value.
  const invalidInControlNumber = invalidCharacterIn(controlNumber);
  if (!controlNumber) problems.push('control_number is empty');
  else if (invalidInControlNumber) problems.push(`control_number contains an invalid character (${invalidInControlNumber}) (got ${shown(controlNumber)})`);
  const samplePosition = Number(position);
  if (!/^[0-9]+$/.test(position) || samplePosition < 1) problems.push(`sample_position must be a whole number from 1 (got ${shown(position)})`);
  if (!findAnalyte(testCode)) {
    const near = CODES_BY_LOWER.get(testCode.toLowerCase());
    problems.push(`unknown test_code ${shown(testCode)}${near ? ` (did you mean ${near}?)` : ''}`);
  }
  // An empty value would clear a result on the tester screens; an import only enters results.
  if (!value) problems.push('value is empty');
  const cells = { value, remark, analysisDate: date };
  const parsed = parseResultFields({ value, remark: remark.toLowerCase(), analysisDate: date });
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

const SAVE_AS_CSV = 'save it from the spreadsheet as "CSV UTF-8 (Comma delimited)" and import that file';

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((b, i) => bytes[i] === b);

/** The line (1-based) of the first bytes that are not UTF-8. */
export function firstLineNotUtf8(bytes: Uint8Array): number {
  const strict = new TextDecoder('utf-8', { fatal: true });
  let line = 1;
  let start = 0;
  for (let i = 0; i <= bytes.length; i += 1) {
    if (i < bytes.length && bytes[i] !== 0x0a) continue;
    try {
      strict.decode(bytes.subarray(start, i));
    } catch {
      return line;
    }
    line += 1;
    start = i + 1;
  }
  return line;
}

/**
 * The text of a results file, or what the file really is: an Excel workbook (a zip), UTF-16 text,
 * or text in another encoding such as Windows-1252 (which would import µ and ° as replacement
 * characters). A UTF-8 byte order mark is dropped.
 */
export function decodeResultsCsv(bytes: Uint8Array): { text: string } | { problem: CsvProblem } {
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    return { problem: { line: 1, message: `this is an Excel workbook (.xlsx) or another zip file, not a CSV file: ${SAVE_AS_CSV}` } };
  }
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) {
    return { problem: { line: 1, message: `the file is UTF-16 text (e.g. Excel's "Unicode Text"); labctl reads UTF-8: ${SAVE_AS_CSV}` } };
  }
  const body = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? bytes.subarray(3) : bytes;
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(body) };
  } catch {
    const line = firstLineNotUtf8(bytes);
    return {
      problem: { line, message: `the file is not UTF-8 text from this line on (Windows-1252 or Latin-1, as Excel's plain "CSV" saves it?): ${SAVE_AS_CSV}` },
    };
  }
}

/** Comma, semicolon (spreadsheets of countries writing 1,5) or tab: whichever the header line uses most. */
function sniffDelimiter(text: string): string {
  const header = text.slice(0, text.search(/\r?\n|$/));
  const count = (c: string) => header.split(c).length - 1;
  return [';', '\t'].reduce((best, c) => (count(c) > count(best) ? c : best), ',');
}

/** A value a spreadsheet would run as a formula if the results were exported and opened again. */
const FORMULA_START = /^[=+\-@]/;

/** Where each column is in the file, or what is wrong with the header. */
function readHeader(cells: string[]): { at: Record<(typeof RESULTS_CSV_COLUMNS)[number], number> } | { message: string } {
  const names = cells.map((h) => h.trim().toLowerCase());
  const known = new Set<string>(RESULTS_CSV_COLUMNS);
  if (!names.some((n) => known.has(n))) return { message: `the first line must be the header ${RESULTS_CSV_HEADER} (found ${cells.join(',')})` };
  const missing = RESULTS_CSV_COLUMNS.filter((c) => !names.includes(c));
  const unknown = names.filter((n) => !known.has(n));
  const twice = names.filter((n, i) => known.has(n) && names.indexOf(n) !== i);
  const faults = [
    ...(missing.length ? [`it lacks ${missing.join(', ')}`] : []),
    ...(unknown.length ? [`unknown column${unknown.length === 1 ? '' : 's'} ${unknown.map((n) => JSON.stringify(n)).join(', ')}`] : []),
    ...(twice.length ? [`${twice.join(', ')} given twice`] : []),
  ];
  if (faults.length) return { message: `the header must name the columns ${RESULTS_CSV_HEADER} (in any order): ${faults.join('; ')}` };
  return { at: Object.fromEntries(RESULTS_CSV_COLUMNS.map((c) => [c, names.indexOf(c)])) as Record<(typeof RESULTS_CSV_COLUMNS)[number], number> };
}

type CsvRecord = { record: string[]; info: { lines: number } };

/**
 * What csv-parse answers for `text` (line breaks already LF) with the options parseResultsCsv uses,
 * without it when there is nothing to unquote: no quote character, no BOM left, well-formed UTF-16.
 * Then each non-empty line is a record and its fields are split on the delimiter, several times
 * faster than the general parser. Otherwise null.
 */
export function splitUnquoted(text: string, delimiter: string): CsvRecord[] | null {
  // isWellFormed (Node 20) is newer than the ES2023 library the code is typed against.
  if (text.includes('"') || text.startsWith('\uFEFF') || !(text as string & { isWellFormed(): boolean }).isWellFormed()) return null;
  const records: CsvRecord[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    if (lines[i] !== '') records.push({ record: lines[i].split(delimiter), info: { lines: i + 1 } });
  }
  return records;
}

/**
 * Parses a results CSV (header row required naming the columns in any order; comma, semicolon or
 * tab separated; optional BOM; CRLF or LF) and checks each row on its own: field formats, known
 * test codes, and one row per sample and test within the file. Rows with every cell empty are
 * skipped. Values a spreadsheet would take for a formula are warned about, not refused.
 */
export function parseResultsCsv(text: string): ParsedResultsCsv {
  let records: CsvRecord[];
  try {
    // Line counting of csv-parse is off by one after blank CRLF lines; plain LF counts right.
    const lf = text.replace(/\r\n?/g, '\n');
    const delimiter = sniffDelimiter(text);
    records = splitUnquoted(lf, delimiter) ?? (parse(lf, {
      info: true, bom: true, relax_column_count: true, skip_empty_lines: true, delimiter,
    }) as unknown as CsvRecord[]);
  } catch (err) {
    const e = err as CsvError & { lines?: number };
    return { rows: [], dataRows: 0, problems: [{ line: e.lines ?? 1, message: `not a readable CSV file: ${e.message}` }], warnings: [] };
  }
  if (records.length === 0) {
    return { rows: [], dataRows: 0, problems: [{ line: 1, message: `the file is empty; the first line must be ${RESULTS_CSV_HEADER}` }], warnings: [] };
  }

  // A record ends on info.lines; quoted fields spanning lines move its first line back.
  const firstLine = (r: CsvRecord) => r.info.lines - r.record.reduce((n, f) => n + (f.includes('\n') ? f.split('\n').length - 1 : 0), 0);

  const [header, ...allData] = records;
  const columns = readHeader(header.record);
  if ('message' in columns) return { rows: [], dataRows: 0, problems: [{ line: firstLine(header), message: columns.message }], warnings: [] };
  // In the standard order, whatever order the file has.
  const order = RESULTS_CSV_COLUMNS.map((c) => columns.at[c]);
  const data = allData.filter((r) => r.record.some((cell) => cell.trim() !== ''));

  const rows: ResultsCsvRow[] = [];
  const problems: CsvProblem[] = [];
  const warnings: CsvProblem[] = [];
  const headerText = header.record.join(',');
  // Line of each sample and test by control number: maps of maps, not a joined string key per row.
  const seen = new Map<string, Map<number, Map<string, number>>>();
  for (const r of data) {
    const line = firstLine(r);
    const checked = checkFields(line, r.record.length === order.length ? order.map((i) => r.record[i]) : r.record, headerText);
    for (const message of checked.problems) problems.push({ line, message });
    if (!checked.row) continue;
    const { controlNumber, samplePosition, testCode } = checked.row;
    let samples = seen.get(controlNumber);
    if (!samples) seen.set(controlNumber, (samples = new Map()));
    let tests = samples.get(samplePosition);
    if (!tests) samples.set(samplePosition, (tests = new Map()));
    const earlier = tests.get(testCode);
    if (earlier !== undefined) {
      problems.push({ line, message: `the same sample and test as line ${earlier}` });
      continue;
    }
    tests.set(testCode, line);
    rows.push(checked.row);
    if (FORMULA_START.test(checked.row.value)) {
      warnings.push({ line, message: `value starts with ${checked.row.value[0]}: a spreadsheet opening an export of it would take it for a formula` });
    }
  }
  return { rows, problems, dataRows: data.length, warnings };
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
  /** YYYY-MM-DD the request was submitted. */
  submissionDate?: string;
}

export interface ResolvedResult extends ResultsCsvRow {
  requestId: number;
  sampleId: number;
  group: Group;
}

/**
 * Checks parsed rows against the requests they name and the acting tester: the request exists and
 * is open for results, the test was ordered and belongs to the tester's discipline, the sample
 * exists. Returns the rows with their database ids, or every problem found; warns about analysis
 * dates after `today` or before the request's submission.
 */
export function resolveResultRows(
  rows: readonly ResultsCsvRow[],
  targets: ReadonlyMap<string, ImportTarget>,
  actor: Actor,
  { today }: { today?: string } = {},
): { entries: ResolvedResult[]; problems: CsvProblem[]; warnings: CsvProblem[] } {
  const entries: ResolvedResult[] = [];
  const problems: CsvProblem[] = [];
  const warnings: CsvProblem[] = [];
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
    if (rowProblems.length === 0) {
      // Spelled out: spreading `row` costs several times more, on a hundred thousand rows.
      const { line, controlNumber, samplePosition, testCode, value, remark, analysisDate } = row;
      entries.push({ line, controlNumber, samplePosition, testCode, value, remark, analysisDate, requestId: target.requestId, sampleId: sampleId!, group: analyte.group });
    }
    const date = row.analysisDate;
    if (date && today && date > today) warnings.push({ line: row.line, message: `analysis_date ${date} is in the future` });
    if (date && target.submissionDate && date < target.submissionDate) {
      warnings.push({ line: row.line, message: `analysis_date ${date} is before request ${target.controlNumber} was submitted (${target.submissionDate})` });
    }
  }
  return { entries, problems, warnings };
}

/** Problems in file order, then by message, for a stable report. */
export function sortProblems(problems: CsvProblem[]): CsvProblem[] {
  return [...problems].sort((a, b) => a.line - b.line || a.message.localeCompare(b.message));
}
