// Mail delivery (DESIGN.md section 8): real SMTP when SMTP_URL is set; otherwise an outbox that
// writes each message as an .eml file under the data directory and prints one line about it.
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '../logger.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Shown on the console line of the outbox in demo mode only (e.g. the code), never logged otherwise. */
  demoHint?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
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

function smtpMailer(options: MailerOptions): Mailer {
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from: options.from, to: message.to, subject: message.subject, text: message.text, html: message.html });
      options.logger.info({ to: message.to, subject: message.subject }, 'mail sent');
    },
    close: () => transport.close(),
  };
}

function outboxMailer(options: MailerOptions): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  let sequence = 0;
  return {
    async send(message) {
      const info = await transport.sendMail({ from: options.from, to: message.to, subject: message.subject, text: message.text, html: message.html });
      await fs.mkdir(options.outboxDir, { recursive: true });
      sequence += 1;
      const file = path.join(options.outboxDir, `${Date.now()}-${sequence}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      const hint = options.demo && message.demoHint ? ` [${message.demoHint}]` : '';
      print(`mail to ${message.to}: ${message.subject}${hint}`);
    },
    close: () => transport.close(),
  };
}
