// Instrument import profiles: how an instrument's own export (a plate reader's OD table, a real-time
// PCR run's Ct table, ...) maps to results. A profile is JSON checked by InstrumentProfileSchema; this
// module reads a file with one into the rows `labctl results import` checks and writes, naming every
// row it cannot use by line and column. Pure: the files are read by the caller.
import { parse, type CsvError } from 'csv-parse/sync';
import { z } from 'zod';
import { ANALYTE_CODES, findAnalyte } from './catalog.js';
import { invalidCharacterIn } from './wellFormedText.js';
import { firstLineNotUtf8, type CsvProblem, type ResultsCsvRow } from './resultsCsv.js';

export const PROFILE_ENCODINGS = ['utf-8', 'windows-1252', 'latin1', 'utf-16le'] as const;
export const CUTOFF_OPERATORS = ['>=', '>', '<=', '<'] as const;
export const DATE_FORMATS = ['YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY', 'DD.MM.YYYY'] as const;
export const REPLICATE_RULES = ['refuse', 'first', 'mean'] as const;

const Column = z.string().trim().min(1, 'must name a column of the header');
const Regex = z.string().min(1).refine((source) => {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}, 'must be a valid regular expression');
const TestCode = z.string().refine((code) => findAnalyte(code) !== undefined, { message: `must be a test code (${ANALYTE_CODES.slice(0, 4).join(', ')}, ...)` });

export const InstrumentProfileSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be lower case letters, digits and dashes (e.g. elisa-plate-reader)'),
    description: z.string().max(500).default(''),
    delimiter: z.enum([',', ';', '\t', '|'], 'must be ",", ";", "\\t" or "|"').default(','),
    encoding: z.enum(PROFILE_ENCODINGS, `must be one of ${PROFILE_ENCODINGS.join(', ')}`).default('utf-8'),
    /** The header line, 1-based: the lines before it are skipped. */
    headerRow: z.number().int().min(1).optional(),
    /** Or: the header is the first line matching this pattern (exports whose preamble varies in length). */
    headerMatch: Regex.optional(),
    /** The data ends before the first line matching this pattern (a trailing section of the export). */
    endMatch: Regex.optional(),
    /** Decimal comma in readings (0,412). */
    decimalComma: z.boolean().default(false),
    sampleId: z
      .object({
        column: Column,
        /** Named groups controlNumber and (optionally) position; a sample id without position is sample 1. */
        pattern: Regex.refine((p) => p.includes('(?<controlNumber>'), 'must have a named group (?<controlNumber>...)'),
      })
      .strict(),
    /** The analyte: a fixed test code, or a column whose values map to test codes. */
    analyte: z.union([
      z.object({ testCode: TestCode }).strict(),
      z
        .object({
          column: Column,
          /** Instrument target -> test code; a target missing here must itself be a test code. */
          map: z.record(z.string(), TestCode).default({}),
        })
        .strict(),
    ]),
    reading: z
      .object({
        column: Column,
        /** Written before the reading in the stored value, e.g. "Ct" -> "Ct 23.41". */
        prefix: z.string().max(40).default(''),
        /** Written after the reading, e.g. "µg/kg" -> "1.8 µg/kg". */
        unit: z.string().max(40).default(''),
        /** Digits after the decimal point in the stored value (the reading as written when left out). */
        decimals: z.number().int().min(0).max(6).optional(),
      })
      .strict(),
    /** A reading against a cut-off gives the remark: positive when `reading positiveWhen threshold`. */
    cutoff: z
      .object({
        positiveWhen: z.enum(CUTOFF_OPERATORS, `must be one of ${CUTOFF_OPERATORS.join(' ')}`),
        threshold: z.number().finite(),
        /** Readings meaning "no signal", hence negative (e.g. "Undetermined", "No Ct", "N/A"); any case. */
        negativeWords: z.array(z.string().min(1)).default([]),
      })
      .strict()
      .optional(),
    analysisDate: z.object({ column: Column, format: z.enum(DATE_FORMATS) }).strict().optional(),
    /** Several readings of one sample and test (replicate wells): refuse them, keep the first, or average them. */
    replicates: z.enum(REPLICATE_RULES, `must be one of ${REPLICATE_RULES.join(', ')}`).default('refuse'),
    /** Rows that are not samples: blanks, standards, controls. Rows with an empty sample id are skipped always. */
    skip: z
      .object({
        wellColumn: Column.optional(),
        /** Well names (A1, H12) never holding samples. */
        wells: z.array(z.string().min(1)).default([]),
        /** Sample ids matching any of these patterns (any case): STD1, Blank, NTC, ... */
        sampleIdPatterns: z.array(Regex).default([]),
        /** Column -> values (any case) that mark a row to skip, e.g. {"Task": ["STANDARD", "NTC"]}. */
        values: z.record(z.string(), z.array(z.string())).default({}),
      })
      .strict()
      .refine((s) => s.wells.length === 0 || s.wellColumn, { message: 'wells needs wellColumn, the column naming the well', path: ['wells'] })
      .default({ wells: [], sampleIdPatterns: [], values: {} }),
  })
  .strict()
  .refine((p) => p.headerRow === undefined || p.headerMatch === undefined, { message: 'give headerRow or headerMatch, not both', path: ['headerMatch'] });

export type InstrumentProfile = z.infer<typeof InstrumentProfileSchema>;

export interface ParsedInstrumentFile {
  rows: ResultsCsvRow[];
  problems: CsvProblem[];
  /** Data rows read (after the header, before the end; blank lines not counted). */
  dataRows: number;
  /** Rows skipped as blanks, standards or controls. */
  skipped: number;
  warnings: CsvProblem[];
}

const shown = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}...` : text);

/** The text of the file in the profile's encoding, or the line where it stops being that encoding. */
export function decodeInstrumentFile(profile: InstrumentProfile, bytes: Uint8Array): { text: string } | { problem: CsvProblem } {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
    return { problem: { line: 1, message: `this is an Excel workbook (.xlsx) or another zip file: export the run as text (CSV or TXT) for profile ${profile.name}` } };
  }
  if (profile.encoding !== 'utf-16le' && bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    return { problem: { line: 1, message: `the file is UTF-16 text, but profile ${profile.name} reads ${profile.encoding}` } };
  }
  if (profile.encoding !== 'utf-8') return { text: new TextDecoder(profile.encoding).decode(bytes).replace(/^\uFEFF/, '') };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '') };
  } catch {
    return { problem: { line: firstLineNotUtf8(bytes), message: `the file is not UTF-8 text from this line on: set "encoding" in profile ${profile.name} (e.g. windows-1252)` } };
  }
}

/** A reading as a number: "0,412" with decimalComma, "1.2E-01"; NaN when it is not one. */
function readNumber(text: string, decimalComma: boolean): number {
  const plain = decimalComma ? text.replace(/\./g, '').replace(',', '.') : text;
  return /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(plain) ? Number(plain) : Number.NaN;
}

const COMPARE: Record<(typeof CUTOFF_OPERATORS)[number], (a: number, b: number) => boolean> = {
  '>=': (a, b) => a >= b,
  '>': (a, b) => a > b,
  '<=': (a, b) => a <= b,
  '<': (a, b) => a < b,
};

/** YYYY-MM-DD of a date cell in `format` (a time after it is ignored), or null when it is not one. */
function readDate(text: string, format: (typeof DATE_FORMATS)[number]): string | null {
  const day = text.trim().split(/[ T]/)[0];
  const parts = format === 'YYYY-MM-DD' ? /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(day) : /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/.exec(day);
  if (!parts) return null;
  const [y, m, d] = format === 'YYYY-MM-DD' ? [parts[1], parts[2], parts[3]] : format === 'MM/DD/YYYY' ? [parts[3], parts[1], parts[2]] : [parts[3], parts[2], parts[1]];
  const iso = `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso ? null : iso;
}

/** The stored value of a reading: prefix, reading (rounded to `decimals`), unit. */
function valueOf(profile: InstrumentProfile, reading: string, number: number): string {
  const { prefix, unit, decimals } = profile.reading;
  const shownReading = Number.isFinite(number) && decimals !== undefined ? number.toFixed(decimals) : reading;
  return [prefix, shownReading, unit].filter((part) => part !== '').join(' ');
}

type CsvRecord = { record: string[]; info: { lines: number } };

/** One usable row's reading, before replicates are merged. */
interface Reading {
  line: number;
  controlNumber: string;
  samplePosition: number;
  testCode: string;
  text: string;
  /** NaN for a negative word or a text reading. */
  number: number;
  /** One of the cut-off's negative words. */
  noSignal: boolean;
  analysisDate: string | null;
}

/**
 * Reads an instrument file with `profile`: the header (by headerRow or headerMatch), then each data
 * row up to endMatch. Skips rows with an empty sample id and the skip rules' blanks, standards and
 * controls; turns the others into result rows (control number, sample position, test code, value,
 * remark, analysis date), or problems naming the line and the column.
 */
export function parseInstrumentFile(profile: InstrumentProfile, text: string): ParsedInstrumentFile {
  const empty = { rows: [], dataRows: 0, skipped: 0, warnings: [] };
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let headerLine = profile.headerRow ?? 1;
  if (profile.headerMatch) {
    const pattern = new RegExp(profile.headerMatch);
    const index = lines.findIndex((l) => pattern.test(l));
    if (index < 0) return { ...empty, problems: [{ line: 1, message: `no line matches the header pattern ${shown(profile.headerMatch)} of profile ${profile.name}: is this a file of that instrument?` }] };
    headerLine = index + 1;
  }
  if (headerLine > lines.length) return { ...empty, problems: [{ line: 1, message: `the file has ${lines.length} lines, but profile ${profile.name} reads the header on line ${headerLine}` }] };
  let lastLine = lines.length;
  if (profile.endMatch) {
    const pattern = new RegExp(profile.endMatch);
    const index = lines.findIndex((l, i) => i >= headerLine && pattern.test(l));
    if (index >= 0) lastLine = index;
  }
  const body = lines.slice(headerLine - 1, lastLine).join('\n');

  let records: CsvRecord[];
  try {
    records = parse(body, { info: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, delimiter: profile.delimiter }) as unknown as CsvRecord[];
  } catch (err) {
    const e = err as CsvError & { lines?: number };
    return { ...empty, problems: [{ line: headerLine - 1 + (e.lines ?? 1), message: `not readable with delimiter ${JSON.stringify(profile.delimiter)}: ${e.message}` }] };
  }
  const lineOf = (r: CsvRecord) => headerLine - 1 + r.info.lines - r.record.reduce((n, f) => n + (f.split('\n').length - 1), 0);
  const [header, ...data] = records;
  if (!header) return { ...empty, problems: [{ line: headerLine, message: `the header line is empty (profile ${profile.name})` }] };

  // Columns by name, any case; each problem names the column as the file spells it and its number.
  const names = header.record.map((h) => h.trim());
  const lower = names.map((n) => n.toLowerCase());
  const wanted = {
    sampleId: profile.sampleId.column,
    analyte: 'column' in profile.analyte ? profile.analyte.column : undefined,
    reading: profile.reading.column,
    date: profile.analysisDate?.column,
    well: profile.skip.wellColumn,
    ...Object.fromEntries(Object.keys(profile.skip.values).map((c, i) => [`skip${i}`, c])),
  };
  const at: Record<string, number> = {};
  const missing: string[] = [];
  for (const [key, name] of Object.entries(wanted)) {
    if (name === undefined) continue;
    const index = lower.indexOf(name.toLowerCase());
    if (index < 0) {
      if (!missing.includes(name)) missing.push(name);
    }
    else at[key] = index;
  }
  if (missing.length) {
    return {
      ...empty,
      problems: [{
        line: lineOf(header),
        message: `the header lacks column${missing.length === 1 ? '' : 's'} ${missing.map((m) => JSON.stringify(m)).join(', ')} that profile ${profile.name} reads (found ${names.map((n) => JSON.stringify(n)).join(', ')}): is this a file of that instrument?`,
      }],
    };
  }
  const columnName = (key: string) => `column ${JSON.stringify(names[at[key]])} (${at[key] + 1})`;

  const samplePattern = new RegExp(profile.sampleId.pattern);
  const skipPatterns = profile.skip.sampleIdPatterns.map((p) => new RegExp(p, 'i'));
  const skipWells = new Set(profile.skip.wells.map((w) => w.toUpperCase()));
  const skipValues = Object.values(profile.skip.values).map((values, i) => ({ index: at[`skip${i}`], values: new Set(values.map((v) => v.trim().toLowerCase())) }));
  const targetMap = new Map(Object.entries('map' in profile.analyte ? profile.analyte.map : {}).map(([k, v]) => [k.trim().toLowerCase(), v]));
  const negativeWords = new Set((profile.cutoff?.negativeWords ?? []).map((w) => w.toLowerCase()));

  /** The readings of each sample and test, in file order. */
  const readings = new Map<string, Reading[]>();
  const problems: CsvProblem[] = [];
  let skipped = 0;
  let dataRows = 0;
  for (const r of data) {
    const cells = r.record.map((c) => c.trim());
    if (cells.every((c) => c === '')) continue;
    dataRows += 1;
    const line = lineOf(r);
    const cell = (key: string) => cells[at[key]] ?? '';
    const sampleId = cell('sampleId');
    if (
      sampleId === '' ||
      (at.well !== undefined && skipWells.has(cell('well').toUpperCase())) ||
      skipPatterns.some((p) => p.test(sampleId)) ||
      skipValues.some(({ index, values }) => values.has((cells[index] ?? '').toLowerCase()))
    ) {
      skipped += 1;
      continue;
    }
    const rowProblems: CsvProblem[] = [];
    const problem = (key: string, message: string) => rowProblems.push({ line, column: names[at[key]], message: `${columnName(key)}: ${message}` });

    const match = samplePattern.exec(sampleId);
    const controlNumber = match?.groups?.controlNumber ?? '';
    const positionText = match?.groups?.position ?? '1';
    const invalidInSampleId = invalidCharacterIn(sampleId);
    if (!match || !controlNumber) problem('sampleId', `sample id ${shown(sampleId)} does not match the pattern ${profile.sampleId.pattern}`);
    else if (invalidInSampleId) problem('sampleId', `sample id contains an invalid character (${invalidInSampleId})`);
    else if (!/^[0-9]+$/.test(positionText) || Number(positionText) < 1) problem('sampleId', `sample position ${shown(positionText)} is not a whole number from 1`);

    let testCode = '';
    if ('testCode' in profile.analyte) testCode = profile.analyte.testCode;
    else {
      const target = cell('analyte');
      testCode = targetMap.get(target.toLowerCase()) ?? (findAnalyte(target) ? target : '');
      if (!testCode) {
        problem('analyte', `target ${shown(target)} is neither in the profile's analyte map (${[...targetMap.keys()].join(', ') || 'empty'}) nor a test code`);
      }
    }

    const text = cell('reading');
    const noSignal = profile.cutoff !== undefined && negativeWords.has(text.toLowerCase());
    const number = noSignal ? Number.NaN : readNumber(text, profile.decimalComma);
    if (text === '') problem('reading', 'the reading is empty');
    else if (!noSignal && Number.isNaN(number) && (profile.cutoff || profile.replicates === 'mean')) {
      const words = profile.cutoff?.negativeWords ?? [];
      problem('reading', `${shown(text)} is not a number${words.length ? ` nor one of ${words.map((w) => JSON.stringify(w)).join(', ')}` : ''}`);
    } else if (valueOf(profile, text, number).length > 500) problem('reading', 'the value would be longer than 500 characters');

    let analysisDate: string | null = null;
    if (profile.analysisDate) {
      const dateText = cell('date');
      if (dateText !== '') {
        analysisDate = readDate(dateText, profile.analysisDate.format);
        if (!analysisDate) problem('date', `${shown(dateText)} is not a date written ${profile.analysisDate.format}`);
      }
    }

    problems.push(...rowProblems);
    if (rowProblems.length) continue;
    const samplePosition = Number(positionText);
    const key = `${controlNumber}\u0000${samplePosition}\u0000${testCode}`;
    const reading: Reading = { line, controlNumber, samplePosition, testCode, text, number, noSignal, analysisDate };
    const earlier = readings.get(key);
    if (!earlier) readings.set(key, [reading]);
    else if (profile.replicates === 'first') skipped += 1;
    else if (profile.replicates === 'mean') earlier.push(reading);
    else {
      problems.push({
        line, column: names[at.sampleId],
        message: `${columnName('sampleId')}: sample ${controlNumber}-${samplePosition} has a ${testCode} reading on line ${earlier[0].line} already (set "replicates" to "mean" or "first" to accept replicate wells)`,
      });
    }
  }

  const rows: ResultsCsvRow[] = [];
  for (const replicates of readings.values()) {
    const [first] = replicates;
    const { line, controlNumber, samplePosition, testCode, analysisDate } = first;
    let text = first.text;
    let number = first.number;
    const noSignal = first.noSignal;
    if (replicates.length > 1) {
      // Replicates agree on "no signal" or all give a number; anything else is for a person to judge.
      if (replicates.some((r) => r.noSignal !== first.noSignal)) {
        const readsAs = replicates.map((r) => `line ${r.line} reads ${shown(r.text)}`).join(', ');
        problems.push({ line: replicates[replicates.length - 1].line, column: names[at.reading], message: `${columnName('reading')}: the replicates of sample ${controlNumber}-${samplePosition} ${testCode} disagree: ${readsAs}` });
        continue;
      }
      if (!noSignal) {
        number = replicates.reduce((sum, r) => sum + r.number, 0) / replicates.length;
        text = String(Number(number.toFixed(6)));
      }
    }
    const value = valueOf(profile, text, number);
    let remark: ResultsCsvRow['remark'] = null;
    if (profile.cutoff) remark = noSignal || !COMPARE[profile.cutoff.positiveWhen](number, profile.cutoff.threshold) ? 'negative' : 'positive';
    rows.push({ line, controlNumber, samplePosition, testCode, value, remark, analysisDate });
  }
  rows.sort((x, y) => x.line - y.line);
  problems.sort((x, y) => x.line - y.line);
  return { rows, problems, dataRows, skipped, warnings: [] };
}
