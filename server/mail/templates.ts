// Message texts. Every message names the laboratory; codes state their validity.
import type { MailMessage } from './mailer.js';
import { CODE_TTL_MINUTES } from '../domain/accountRules.js';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A plain-text body and the same paragraphs as simple HTML. */
export function message(to: string, subject: string, paragraphs: string[], demoHint?: string): MailMessage {
  return {
    to,
    subject,
    text: `${paragraphs.join('\n\n')}\n`,
    html: paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('\n'),
    demoHint,
  };
}

export type CodeMailKind = 'login' | 'register' | 'reset';

const CODE_SUBJECTS: Record<CodeMailKind, string> = {
  login: 'Your login code',
  register: 'Verify your e-mail address',
  reset: 'Your password reset code',
};

const CODE_PURPOSES: Record<CodeMailKind, string> = {
  login: 'to finish logging in',
  register: 'to complete your registration',
  reset: 'to reset your password',
};

export function codeMail(kind: CodeMailKind, to: string, code: string, labName: string): MailMessage {
  return message(
    to,
    `${labName}: ${CODE_SUBJECTS[kind]}`,
    [
      `${labName} laboratory portal`,
      `Your code ${CODE_PURPOSES[kind]} is: ${code}`,
      `The code is valid for ${CODE_TTL_MINUTES} minutes and can be used once. If you did not ask for it, ignore this message.`,
    ],
    `code ${code}`,
  );
}
