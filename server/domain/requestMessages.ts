// The additional-information exchange about a request (DESIGN.md sections 5 and 10): the shape of a
// message and its length limit, shared by the service, its call and the screens that write one.

/** 'question' from the laboratory staff, 'reply' from the client. */
export type MessageKind = 'question' | 'reply';

export interface RequestMessage {
  messageId: number;
  requestId: number;
  kind: MessageKind;
  body: string;
  /** ISO timestamp. */
  createdAt: string;
}

export const MESSAGE_MAX_LENGTH = 2000;
