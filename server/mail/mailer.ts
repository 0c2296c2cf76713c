// Mail delivery (DESIGN.md section 8): real SMTP when SMTP_URL is set; otherwise a folder that
// receives each message as an .eml file under the data directory and prints one line about it.
// Services never call this: they queue mail in the outbox table, whose worker sends it through here.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Logger } from '../logger.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../privateFiles.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Shown on the console line of the outbox in demo mode only (e.g. the code), never logged otherwise. */
  demoHint?: string;
  /** Makes the Message-ID `<outbox-KEY@domain of the sender>`: the same on every attempt of one outbox row. */
  messageKey?: string;
}

/** The domain of a sender such as `Lab <lab@example.org>` or `lab@example.org` (`localhost` without one). */
export function senderDomain(from: string): string {
  return /@([^\s>@]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
}

/** What nodemailer is given of a message: the same headers from the SMTP and the outbox mailer. */
function envelope(from: string, message: MailMessage) {
  const messageId = message.messageKey ? `<outbox-${message.messageKey}@${senderDomain(from)}>` : undefined;
  return { from, to: message.to, subject: message.subject, text: message.text, html: message.html, messageId };
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Checks that mail can leave: the SMTP server answers (and accepts the login), or the folder is writable. */
  verify(): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  demo: boolean;
  logger: Logger;
  /** Where the outbox prints its one line per message (the console by default). */
  print?: (line: string) => void;
}

export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl ? smtpMailer(options) : outboxMailer(options);
}

/**
 * A transport made on first use: nodemailer is loaded then, not when the server or a command starts
 * (most commands never send mail).
 */
function lazyTransport(settings: string | Record<string, unknown>) {
  let transport: Promise<Transporter> | undefined;
  return {
    get: () => (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(settings))),
    close: () => void transport?.then((t) => t.close()),
  };
}

function smtpMailer(options: MailerOptions): Mailer {
  // Bounded waits, so a hung mail server fails the attempt (the outbox retries) well within a claim.
  const url = new URL(options.smtpUrl!);
  for (const [key, ms] of Object.entries({ connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 })) {
    if (!url.searchParams.has(key)) url.searchParams.set(key, String(ms));
  }
  const transport = lazyTransport(url.toString());
  return {
    async send(message) {
      await (await transport.get()).sendMail(envelope(options.from, message));
      options.logger.info({ to: message.to, subject: message.subject }, 'mail sent');
    },
    async verify() {
      await (await transport.get()).verify();
    },
    close: () => transport.close(),
  };
}

function outboxMailer(options: MailerOptions): Mailer {
  const transport = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  let sequence = 0;
  return {
    async send(message) {
      const info = await (await transport.get()).sendMail(envelope(options.from, message));
      // Messages hold live one-time codes: owner-only, like the rest of the data directory.
      await fs.mkdir(options.outboxDir, { recursive: true, mode: PRIVATE_DIR_MODE });
      sequence += 1;
      const file = path.join(options.outboxDir, `${Date.now()}-${sequence}.eml`);
      await fs.writeFile(file, info.message as Buffer, { mode: PRIVATE_FILE_MODE });
      const hint = options.demo && message.demoHint ? ` [${message.demoHint}]` : '';
      print(`mail to ${message.to}: ${message.subject}${hint}`);
    },
    // Creates nothing (labctl doctor checks with it): the folder, or the directory it will be made in, is writable.
    async verify() {
      const existing = await fs.stat(options.outboxDir).then(() => options.outboxDir, () => path.dirname(options.outboxDir));
      await fs.access(existing, fs.constants.W_OK);
    },
    close: () => transport.close(),
  };
}
