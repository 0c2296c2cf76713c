// The one CSV writer of the exports (work queues, audit trail, reports, results templates): RFC 4180
// fields and CRLF lines, and text a spreadsheet must not run as a formula. Pure, so the UI writes
// the same bytes as the server.

/** One CSV field: quoted when it holds a comma, quote or line break (RFC 4180). */
export function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A line of fields, without its line end. */
export function csvLine(values: readonly (string | number)[]): string {
  return values.map(csvField).join(',');
}

/** Lines with CRLF ends, as RFC 4180 writes them (the last one ended too). */
export const csvLines = (lines: readonly (readonly (string | number)[])[]): string => lines.map((l) => `${csvLine(l)}\r\n`).join('');

/** Text a user typed: a spreadsheet would run a cell starting with = + - @ tab or CR as a formula, so such text is quoted with '. */
export const inertText = (text: string): string => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
