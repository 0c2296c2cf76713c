// Structured logs (pino). Secrets never reach a log: known secret fields are redacted, and request
// URLs are logged with secret query parameters masked (SPEC puts passwords and codes in queries).
// Logs always go to stderr (stdout carries only a command's result), in one of two formats: JSON
// lines for machines (journald, log shippers) or short readable lines for a person at a terminal.
import pino from 'pino';

export type Logger = pino.Logger;
export type LogFormat = 'json' | 'pretty';

export const SECRET_KEYS = ['password', 'newPassword', 'otp', 'code', 'token'];
/** A query parameter named as one of SECRET_KEYS, any case (matched on the query from its `?`). */
const SECRET_PARAMETER = new RegExp(`[?&](?:${SECRET_KEYS.join('|')})(?:[=&]|$)`, 'i');

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: [...SECRET_KEYS, ...SECRET_KEYS.map((k) => `*.${k}`)], censor: '[redacted]' },
    },
    destination,
  );
}

/** Where log lines go: something with a `write(text)`, such as process.stderr. */
export interface LogSink {
  write(text: string): unknown;
}

/**
 * A logger writing to `sink` (default: file descriptor 2 through pino's own fast writer) in
 * `format`: JSON lines as pino makes them, or each line re-written as `LEVEL time msg key=value`
 * (pino-pretty is not a dependency; this is all a terminal needs).
 */
export function createLoggerTo(level: string, format: LogFormat, sink?: LogSink): Logger {
  const write = sink ? (text: string) => void sink.write(text) : (text: string) => void process.stderr.write(text);
  if (format === 'json') return createLogger(level, sink ? { write } : batchedStderr());
  return createLogger(level, { write: (line: string) => write(`${prettyLine(line)}\n`) });
}

/** Log lines are written once this many bytes wait... */
const LOG_BATCH_BYTES = 4096;
/** ...or every this often: how late a line may reach the journal or a file. */
const LOG_FLUSH_MS = 200;

/**
 * File descriptor 2 through pino's writer, with the lines gathered into one write of LOG_BATCH_BYTES
 * or of what came within LOG_FLUSH_MS: `labctl serve` logs every call at info, and a write a line
 * cost the server an eighth of the CPU of a cached answer. pino writes what waits when the process
 * exits (a crash included); a kill -9 loses at most the last LOG_FLUSH_MS of lines.
 */
function batchedStderr(): pino.DestinationStream {
  const destination = pino.destination({ dest: 2, minLength: LOG_BATCH_BYTES });
  let waiting = false;
  setInterval(() => {
    if (!waiting) return;
    waiting = false;
    try {
      destination.flush();
    } catch {
      // Destroyed (its file descriptor gone): there is nowhere left to write.
    }
  }, LOG_FLUSH_MS).unref();
  return {
    write(line: string) {
      waiting = true;
      destination.write(line);
    },
  };
}

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
// Fields every pino line carries that a person at the terminal does not need.
const HIDDEN = new Set(['level', 'time', 'msg', 'pid', 'hostname']);

/** One pino JSON line as `WARN 12:03:04 mail not sent outboxId=3 to=a@b.example err="..."`. */
export function prettyLine(jsonLine: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(jsonLine) as Record<string, unknown>;
  } catch {
    return jsonLine.trimEnd();
  }
  const level = LEVEL_NAMES[Number(entry.level)] ?? String(entry.level);
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 19) : '';
  const fields = Object.entries(entry)
    .filter(([key]) => !HIDDEN.has(key))
    .map(([key, value]) => `${key}=${fieldText(value)}`);
  return [level, time, String(entry.msg ?? ''), ...fields].filter(Boolean).join(' ');
}

function fieldText(value: unknown): string {
  // An error keeps its message only: its stack is for the JSON format and bug reports.
  if (value && typeof value === 'object' && 'message' in value) value = (value as { message: unknown }).message;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return /^[^\s"=]+$/.test(text) ? text : JSON.stringify(text);
}

/**
 * The format to use: LOG_FORMAT when set; otherwise readable lines on a terminal, and when stderr
 * is not a terminal JSON for the server (systemd and Docker collect it for parsers) but readable
 * lines for the other commands, whose stderr a person reads after the fact.
 */
export function chooseLogFormat(setting: LogFormat | undefined, stderrIsTerminal: boolean, server: boolean): LogFormat {
  if (setting) return setting;
  return server && !stderrIsTerminal ? 'json' : 'pretty';
}

/** The URL with the values of secret query parameters replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  // Every call is logged: a query that names no secret parameter, even percent-encoded, goes as it is.
  if (!url.includes('%', q) && !SECRET_PARAMETER.test(url.slice(q))) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of [...params.keys()]) {
    if (SECRET_KEYS.some((s) => s.toLowerCase() === key.toLowerCase())) params.set(key, '[redacted]');
  }
  return `${url.slice(0, q)}?${params.toString()}`;
}
