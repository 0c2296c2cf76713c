// A real SMTP server in the test process: the app sends over SMTP, tests read what arrived.
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  raw: string;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The plain-text part (or the whole body of a single-part message), decoded. */
export function parseMail(raw: string): Omit<ReceivedMail, 'raw'> {
  const [head] = raw.split(/\r?\n\r?\n/);
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const header = (name: string) => unfolded.match(new RegExp(`^${name}:\\s*(.*)$`, 'im'))?.[1]?.trim() ?? '';
  const plainPart = raw.match(/Content-Type: text\/plain[^]*?\r?\n\r?\n([^]*?)(?:\r?\n--[^\r\n]+|$)/i);
  const body = plainPart ? plainPart[1] : raw.slice(head.length).trim();
  const encoding = plainPart ? raw.slice(plainPart.index ?? 0).match(/Content-Transfer-Encoding:\s*(\S+)/i)?.[1] : undefined;
  const text = encoding?.toLowerCase() === 'quoted-printable'
    ? decodeQuotedPrintable(body)
    : encoding?.toLowerCase() === 'base64' ? Buffer.from(body, 'base64').toString('utf8') : body;
  return { to: header('To').replace(/^.*<(.+)>.*$/, '$1').toLowerCase(), subject: header('Subject'), text };
}

export interface Mailbox {
  url: string;
  messages: ReceivedMail[];
  /** Resolves with the first message to `to` matching `predicate` that arrived after `since` messages. */
  waitFor(to: string, predicate?: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** The 6-digit code of the newest message to `to` (waits for one). */
  codeFor(to: string, subjectIncludes?: string): Promise<string>;
  close(): Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({ ...parseMail(raw), raw });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;

  const waitFor: Mailbox['waitFor'] = (to, predicate = () => true, timeoutMs = 10_000) =>
    new Promise((resolve, reject) => {
      const match = () => [...messages].reverse().find((m) => m.to === to.toLowerCase() && predicate(m));
      const found = match();
      if (found) return resolve(found);
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`No mail to ${to} within ${timeoutMs} ms (got: ${messages.map((m) => `${m.to}: ${m.subject}`).join('; ')})`));
      }, timeoutMs);
      const check = () => {
        const m = match();
        if (m) {
          clearTimeout(timer);
          waiters.delete(check);
          resolve(m);
        }
      };
      waiters.add(check);
    });

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor,
    async codeFor(to, subjectIncludes) {
      const mail = await waitFor(to, (m) => /\b\d{6}\b/.test(m.text) && (!subjectIncludes || m.subject.includes(subjectIncludes)));
      return mail.text.match(/\b(\d{6})\b/)![1];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
