/**
 * A real SMTP server in the test process (smtp-server) for the API, CLI and browser tests: the app
 * sends over SMTP, tests read what arrived. Just enough MIME parsing to read the recipients, the
 * subject and the plain text (quoted-printable, base64, multipart, encoded words); mailparser is not
 * a dependency on purpose.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Mail {
  /** The recipient the message was matched for (first recipient when read from the list). */
  to: string;
  /** Every recipient: envelope RCPT TO plus the addresses of the To header, lower-cased. */
  recipients: string[];
  subject: string;
  /** Plain text body (the text/plain part; else the HTML part without tags). */
  text: string;
  /** The whole message as received. */
  raw: string;
  /** Order of arrival, from 0. */
  index: number;
}

export interface WaitForOptions {
  /** Only messages that arrived at or after this mark (see Mailbox.mark()). */
  after?: number;
  /** Default 15 s. */
  timeoutMs?: number;
}

// ---------------------------------------------------------------------------------------------
// MIME parsing

type Headers = Map<string, string>;

function splitHeadersAndBody(raw: string): { headers: Headers; body: string } {
  const match = /\r?\n\r?\n/.exec(raw);
  const head = match ? raw.slice(0, match.index) : raw;
  const body = match ? raw.slice(match.index + match[0].length) : '';
  const headers: Headers = new Map();
  // unfold continuation lines, then split
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function headerParam(value: string, param: string): string | null {
  const re = new RegExp(`(?:^|;)\\s*${param}\\s*=\\s*(?:"([^"]*)"|([^;\\s]*))`, 'i');
  const m = re.exec(value);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

function bytesToText(bytes: Buffer, charset: string | null): string {
  const cs = (charset ?? 'utf-8').toLowerCase();
  try {
    return new TextDecoder(cs).decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

/** Quoted-printable: soft line breaks (`=` at line end) vanish, `=XX` are bytes. */
function decodeQuotedPrintable(input: string, charset: string | null = 'utf-8'): string {
  const joined = input.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const ch = joined[i] ?? '';
    const hex = joined.slice(i + 1, i + 3);
    if (ch === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      for (const b of Buffer.from(ch, 'utf8')) bytes.push(b);
    }
  }
  return bytesToText(Buffer.from(bytes), charset);
}

/** RFC 2047 encoded words in headers: =?utf-8?Q?...?= and =?utf-8?B?...?=. */
function decodeEncodedWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[QqBb]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_all, charset: string, enc: string, data: string) => {
      if (enc.toUpperCase() === 'B') return bytesToText(Buffer.from(data, 'base64'), charset);
      return decodeQuotedPrintable(data.replace(/_/g, ' '), charset);
    });
}

function decodeBody(body: string, headers: Headers): string {
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const charset = headerParam(headers.get('content-type') ?? '', 'charset');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body, charset);
  if (encoding === 'base64') return bytesToText(Buffer.from(body.replace(/\s+/g, ''), 'base64'), charset);
  return body;
}

function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

interface TextParts {
  plain: string | null;
  html: string | null;
}

function findText(raw: string, depth = 0): TextParts {
  const { headers, body } = splitHeadersAndBody(raw);
  const type = (headers.get('content-type') ?? 'text/plain').toLowerCase();
  if (type.startsWith('multipart/') && depth < 10) {
    const boundary = headerParam(headers.get('content-type') ?? '', 'boundary');
    if (!boundary) return { plain: body, html: null };
    const parts = body.split(`--${boundary}`).slice(1);
    const found: TextParts = { plain: null, html: null };
    for (const part of parts) {
      if (part.startsWith('--')) break; // closing delimiter
      const inner = findText(part.replace(/^\r?\n/, ''), depth + 1);
      found.plain ??= inner.plain;
      found.html ??= inner.html;
    }
    return found;
  }
  if (type.startsWith('text/html')) return { plain: null, html: decodeBody(body, headers) };
  if (type.startsWith('text/')) return { plain: decodeBody(body, headers), html: null };
  return { plain: null, html: null };
}

function addresses(value: string): string[] {
  return (value.match(/[^\s<>,;"']+@[^\s<>,;"']+/g) ?? []).map((a) => a.toLowerCase());
}

/** Parses one raw message. */
function parseMail(raw: string, envelopeTo: string[], index: number): Mail {
  const { headers } = splitHeadersAndBody(raw);
  const headerTo = addresses(decodeEncodedWords(headers.get('to') ?? ''));
  const recipients = [...new Set([...envelopeTo.map((a) => a.toLowerCase()), ...headerTo])];
  const parts = findText(raw);
  const text = (parts.plain ?? (parts.html !== null ? htmlToText(parts.html) : '')).replace(/\r\n/g, '\n').replace(/\n+$/, '');
  return {
    to: recipients[0] ?? '',
    recipients,
    subject: decodeEncodedWords(headers.get('subject') ?? ''),
    text,
    raw,
    index,
  };
}

/** The first 6-digit code in a text (login, registration and reset codes), or null. */
export function extractCode(text: string): string | null {
  return /(?<!\d)(\d{6})(?!\d)/.exec(text)?.[1] ?? null;
}

// ---------------------------------------------------------------------------------------------
// Mailbox

export interface Mailbox {
  /** smtp://127.0.0.1:<port>, for the app's SMTP_URL. */
  readonly url: string;
  /** Every message so far, in order of arrival. */
  readonly messages: readonly Mail[];
  /** A mark for `waitFor(..., { after: mark })`: only messages arriving from now on. */
  mark(): number;
  /**
   * The newest message to `to` (case-insensitive) matching `predicate`, or when there is none yet
   * the first to arrive (no fixed sleeps). Rejects after the timeout with a list of what did arrive.
   * A number as `options` is the timeout in ms.
   */
  waitFor(to: string, predicate?: (mail: Mail) => boolean, options?: WaitForOptions | number): Promise<Mail>;
  /** The 6-digit code of the newest message to `to` with one (and `subjectIncludes` in its subject). */
  codeFor(to: string, subjectIncludes?: string): Promise<string>;
  /** Stops accepting connections (a mail server outage); `restart()` listens again on the same port. */
  stop(): Promise<void>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** Starts an SMTP server on 127.0.0.1, on any free port. */
export async function startMailbox(): Promise<Mailbox> {
  const received: Mail[] = [];
  const waiters = new Set<() => void>();
  const newServer = () => new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    disableReverseLookup: true,
    closeTimeout: 2_000,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (error) => callback(error));
      stream.on('end', () => {
        const envelopeTo = session.envelope.rcptTo.map((r) => r.address);
        received.push(parseMail(Buffer.concat(chunks).toString('utf8'), envelopeTo, received.length));
        for (const wake of [...waiters]) wake();
        callback();
      });
    },
  });
  const listen = (smtp: SMTPServer, port: number) =>
    new Promise<void>((resolve, reject) => {
      smtp.once('error', reject);
      smtp.listen(port, '127.0.0.1', () => resolve());
    });
  let server: SMTPServer | null = newServer();
  await listen(server, 0);
  const { port } = server.server.address() as AddressInfo;
  const stop = async () => {
    const running = server;
    server = null;
    if (running) await new Promise<void>((resolve) => running.close(() => resolve()));
  };

  const waitFor: Mailbox['waitFor'] = (to, predicate = () => true, options = {}) => {
    const address = to.trim().toLowerCase();
    const { after = 0, timeoutMs = 15_000 } = typeof options === 'number' ? { timeoutMs: options } : options;
    const find = () => received.findLast((m) => m.index >= after && m.recipients.includes(address) && predicate(m));

    return new Promise<Mail>((resolve, reject) => {
      const check = (): boolean => {
        const mail = find();
        if (mail) resolve({ ...mail, to: address });
        return mail !== undefined;
      };
      if (check()) return;
      const timer = setTimeout(() => {
        waiters.delete(wake);
        const seen = received.map((m) => `  #${m.index} to ${m.recipients.join(', ')}: ${m.subject}`).join('\n');
        reject(new Error(`No mail to ${address} within ${timeoutMs} ms. Received:\n${seen || '  (nothing)'}`));
      }, timeoutMs);
      const wake = () => {
        if (check()) {
          clearTimeout(timer);
          waiters.delete(wake);
        }
      };
      waiters.add(wake);
    });
  };

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages: received,
    mark: () => received.length,
    waitFor,
    async codeFor(to, subjectIncludes) {
      const mail = await waitFor(to, (m) => extractCode(m.text) !== null && (!subjectIncludes || m.subject.includes(subjectIncludes)));
      return extractCode(mail.text)!;
    },
    stop,
    async restart() {
      if (server) return;
      server = newServer();
      await listen(server, port);
    },
    close: stop,
  };
}
