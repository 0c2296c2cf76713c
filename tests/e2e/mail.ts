/**
 * A small in-process mail catcher for the browser tests: an SMTP server (smtp-server) that keeps
 * every message, with just enough MIME parsing to read To, Subject and the plain text
 * (quoted-printable, base64, multipart). mailparser is not a dependency on purpose.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Mail {
  /** The recipient the message was matched for (first envelope recipient when read from the list). */
  to: string;
  /** Every recipient: envelope RCPT TO plus the addresses of the To header, lower-cased. */
  recipients: string[];
  from: string;
  subject: string;
  /** Plain text body (the text/plain part; else the HTML part without tags). */
  text: string;
  /** The whole message as received. */
  raw: string;
  /** Order of arrival, from 0. */
  index: number;
  receivedAt: Date;
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
export function decodeQuotedPrintable(input: string, charset: string | null = 'utf-8'): string {
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
export function decodeEncodedWords(value: string): string {
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
export function parseMail(raw: string, envelopeTo: string[] = [], index = 0): Mail {
  const { headers } = splitHeadersAndBody(raw);
  const headerTo = addresses(decodeEncodedWords(headers.get('to') ?? ''));
  const recipients = [...new Set([...envelopeTo.map((a) => a.toLowerCase()), ...headerTo])];
  const parts = findText(raw);
  const text = (parts.plain ?? (parts.html !== null ? htmlToText(parts.html) : '')).replace(/\r\n/g, '\n').replace(/\n+$/, '');
  return {
    to: recipients[0] ?? '',
    recipients,
    from: decodeEncodedWords(headers.get('from') ?? ''),
    subject: decodeEncodedWords(headers.get('subject') ?? ''),
    text,
    raw,
    index,
    receivedAt: new Date(),
  };
}

/** The first 6-digit code in a text (login, registration and reset codes), or null. */
export function extractCode(text: string): string | null {
  return /(?<!\d)(\d{6})(?!\d)/.exec(text)?.[1] ?? null;
}

// ---------------------------------------------------------------------------------------------
// Mailbox

export class Mailbox {
  private readonly received: Mail[] = [];
  private readonly taken = new Set<number>();
  private readonly waiters = new Set<() => void>();

  /** Every message so far, in order of arrival. */
  get messages(): readonly Mail[] {
    return this.received;
  }

  /** A mark for `waitFor(..., { after: mark })`: only messages arriving from now on. */
  mark(): number {
    return this.received.length;
  }

  /** Stores a message (called by the SMTP server). */
  deliver(raw: string, envelopeTo: string[]): Mail {
    const mail = parseMail(raw, envelopeTo, this.received.length);
    this.received.push(mail);
    for (const wake of [...this.waiters]) wake();
    return mail;
  }

  /**
   * The first message to `to` (case-insensitive) matching `predicate` that no earlier waitFor
   * returned; waits for it to arrive (no fixed sleeps). Rejects after the timeout with a list of
   * what did arrive.
   */
  waitFor(to: string, predicate: (mail: Mail) => boolean = () => true, options: WaitForOptions = {}): Promise<Mail> {
    const address = to.trim().toLowerCase();
    const after = options.after ?? 0;
    const timeoutMs = options.timeoutMs ?? 15_000;
    const find = (): Mail | undefined =>
      this.received.find(
        (m) => m.index >= after && !this.taken.has(m.index) && m.recipients.includes(address) && predicate(m),
      );

    return new Promise<Mail>((resolve, reject) => {
      const check = (): boolean => {
        const mail = find();
        if (!mail) return false;
        this.taken.add(mail.index);
        resolve({ ...mail, to: address });
        return true;
      };
      if (check()) return;
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        const seen = this.received.map((m) => `  #${m.index} to ${m.recipients.join(', ')}: ${m.subject}`).join('\n');
        reject(new Error(`No mail to ${address} within ${timeoutMs} ms. Received:\n${seen || '  (nothing)'}`));
      }, timeoutMs);
      const wake = () => {
        if (check()) {
          clearTimeout(timer);
          this.waiters.delete(wake);
        }
      };
      this.waiters.add(wake);
    });
  }
}

export interface MailServer {
  mailbox: Mailbox;
  port: number;
  /** smtp://127.0.0.1:<port> */
  url: string;
  close(): Promise<void>;
}

/** Starts an SMTP server on 127.0.0.1 (port 0 = any free port) that delivers into a Mailbox. */
export async function startMailServer(port = 0): Promise<MailServer> {
  const mailbox = new Mailbox();
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    closeTimeout: 2_000,
    logger: false,
    banner: 'e2e mail catcher',
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? 'e2e' });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (error) => callback(error));
      stream.on('end', () => {
        const envelopeTo = session.envelope.rcptTo.map((r) => r.address);
        mailbox.deliver(Buffer.concat(chunks).toString('utf8'), envelopeTo);
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.server.address() as AddressInfo;
  return {
    mailbox,
    port: address.port,
    url: `smtp://127.0.0.1:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
