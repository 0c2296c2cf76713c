// Messages to the client about its request: approval (with the control number), rejection, release
// of the results, and a staff request for additional information.
import type { MailMessage } from './mailer.js';
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

export function rejectionMail(r: MailRequest, labName: string, reason: string | null = null): MailMessage {
  return message(r.emailAddress, `${labName}: request rejected`, [
    `${labName} laboratory portal`,
    `We are sorry: ${describe(r)} has been rejected.`,
    ...(reason ? [`Reason: ${reason}`] : []),
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

/** A released report was amended (ISO/IEC 17025 7.8.8): the new report replaces the old one. */
export function amendmentMail(r: MailRequest, replaced: string, amended: string, reason: string, labName: string): MailMessage {
  return message(r.emailAddress, `${labName}: amended certificate ${amended} replaces ${replaced}`, [
    `${labName} laboratory portal`,
    `The results of ${describe(r)} have been amended. Certificate ${amended} replaces certificate ${replaced}, which is no longer valid.`,
    `Reason: ${reason}`,
    `${portal(labName)} Download the amended certificate from the request's results.`,
  ]);
}

/** A released report was withdrawn: it must no longer be relied on (its verification page says so). */
export function withdrawalMail(r: MailRequest, withdrawn: string, reason: string, labName: string): MailMessage {
  return message(r.emailAddress, `${labName}: certificate ${withdrawn} withdrawn`, [
    `${labName} laboratory portal`,
    `Certificate ${withdrawn} of ${describe(r)} has been withdrawn by the laboratory and is no longer valid. Do not rely on it or pass it on.`,
    `Reason: ${reason}`,
    `${portal(labName)} The withdrawn certificate stays readable there, marked withdrawn.`,
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
