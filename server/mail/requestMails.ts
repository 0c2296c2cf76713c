// Messages to the client about its request: approval (with the control number), rejection, release
// of the results, and a staff request for additional information.
import type { Logger } from '../logger.js';
import type { Mailer, MailMessage } from './mailer.js';
import { message } from './templates.js';

/** What a mail says about the request it concerns. */
export interface MailRequest {
  requestId: number;
  controlNumber: string | null;
  /** ISO timestamp of the submission. */
  submissionDate: string;
  emailAddress: string;
}

const describe = (r: MailRequest) =>
  r.controlNumber
    ? `your testing request with control number ${r.controlNumber}`
    : `your testing request submitted on ${r.submissionDate.slice(0, 10)} (request ${r.requestId})`;

const portal = (labName: string) => `Log in to the ${labName} laboratory portal and open Track My Request to see it.`;

export function approvalMail(r: MailRequest & { controlNumber: string }, labName: string): MailMessage {
  return message(r.emailAddress, `${labName}: request approved, control number ${r.controlNumber}`, [
    `${labName} laboratory portal`,
    `Your testing request submitted on ${r.submissionDate.slice(0, 10)} has been approved.`,
    `Control Number: ${r.controlNumber}`,
    `Please quote this control number with your samples. ${portal(labName)}`,
  ]);
}

export function rejectionMail(r: MailRequest, labName: string): MailMessage {
  return message(r.emailAddress, `${labName}: request rejected`, [
    `${labName} laboratory portal`,
    `We are sorry: ${describe(r)} has been rejected.`,
    'Please contact the laboratory if you have questions.',
  ]);
}

export function releaseMail(r: MailRequest, labName: string): MailMessage {
  return message(r.emailAddress, `${labName}: results released${r.controlNumber ? ` for ${r.controlNumber}` : ''}`, [
    `${labName} laboratory portal`,
    `The results of ${describe(r)} have been released.`,
    portal(labName),
  ]);
}

export function informationRequestMail(r: MailRequest, question: string, labName: string): MailMessage {
  return message(r.emailAddress, `${labName}: additional information needed for your request`, [
    `${labName} laboratory portal`,
    `The laboratory needs additional information about ${describe(r)}:`,
    question,
    `${portal(labName)} You can reply on the request's review page.`,
  ]);
}

/** Sends after the change was committed: a failed mail is logged, never turned into a failed call. */
export async function sendQuietly(deps: { mailer: Mailer; logger?: Logger }, mail: MailMessage): Promise<void> {
  try {
    await deps.mailer.send(mail);
  } catch (err) {
    if (deps.logger) deps.logger.error({ err, to: mail.to, subject: mail.subject }, 'mail not sent');
    else console.error(`Mail to ${mail.to} (${mail.subject}) not sent: ${(err as Error).message}`);
  }
}
