// The additional-information exchange about a request (DESIGN.md sections 5 and 10): the shape of a
// message and its length limit, shared by the service, its call and the screens that write one.
import { z } from 'zod';

/** 'question' from the laboratory staff, 'reply' from the client, 'rejection' the reason staff gave for rejecting. */
export type MessageKind = 'question' | 'reply' | 'rejection';

export interface RequestMessage {
  messageId: number;
  requestId: number;
  kind: MessageKind;
  body: string;
  /** ISO timestamp. */
  createdAt: string;
}

export const MESSAGE_MAX_LENGTH = 2000;

/** The reason staff give for a rejection (optional in the SPEC call, asked for by the portal and `labctl requests reject --reason`). */
export const RejectionReason = z.string('must be text').trim().max(MESSAGE_MAX_LENGTH, `use at most ${MESSAGE_MAX_LENGTH} characters`);
