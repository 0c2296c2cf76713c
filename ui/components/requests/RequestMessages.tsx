import { useCallback, useId, useState, type FormEvent } from 'react';
import { MESSAGE_MAX_LENGTH, type RequestMessage } from '../../../server/domain/requestMessages.js';
import type { RequestStatus } from '../../../server/domain/requestStatus.js';
import { listRequestMessages, postRequestMessage } from '../../api/desk.js';
import { failureText, useLoad } from '../../hooks/useLoad.js';
import { useSession } from '../../session.js';
import '../../styles/staff.css';
import { formatTimestampDay } from './format.js';

export interface RequestMessagesProps {
  requestId: string | number;
  /** The request's status: the client may reply only while it is PENDING_REVIEW. */
  requestStatus?: RequestStatus;
}

const AUTHOR: Record<RequestMessage['kind'], string> = { question: 'Laboratory', reply: 'Client', rejection: 'Laboratory (reason for rejection)' };

/**
 * The additional-information exchange of a request (DESIGN.md section 5): the laboratory's questions
 * and the client's replies, oldest first, shown as text. The owning client gets a reply box while
 * the request is pending review and a question is open; staff read it. Renders nothing until there
 * is a message.
 */
export function RequestMessages({ requestId, requestStatus }: RequestMessagesProps) {
  const id = useId();
  const { user } = useSession();
  const state = useLoad(useCallback((signal: AbortSignal) => listRequestMessages(requestId, signal), [requestId]));
  const [sent, setSent] = useState<RequestMessage[]>([]);
  const [reply, setReply] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);

  if (state.status === 'loading') return null;
  if (state.status === 'error') {
    return (
      <p className="form-error" role="alert">
        {failureText(state.error)}
      </p>
    );
  }
  const messages = [...state.data, ...sent];
  if (messages.length === 0) return null;
  const canReply = user?.userType === 'client' && requestStatus === 'PENDING_REVIEW' && messages.some((m) => m.kind === 'question');

  async function send(event: FormEvent) {
    event.preventDefault();
    if (reply.trim() === '') {
      setNotice({ kind: 'error', text: 'Please type your reply first.' });
      return;
    }
    setBusy(true);
    setNotice(null);
    try {
      const message = await postRequestMessage(requestId, reply);
      setSent((list) => [...list, message]);
      setReply('');
      setNotice({ kind: 'ok', text: 'Your reply has been sent.' });
    } catch (error) {
      setNotice({ kind: 'error', text: failureText(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="request-messages" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Additional Information</h2>
      <ol className="message-list">
        {messages.map((m) => (
          <li key={m.messageId} className={`message message-${m.kind}`}>
            <p className="message-meta">
              <strong>{AUTHOR[m.kind]}</strong> <span className="muted">{formatTimestampDay(m.createdAt)}</span>
            </p>
            <p className="message-body">{m.body}</p>
          </li>
        ))}
      </ol>
      {canReply && (
        <form className="form message-reply" onSubmit={send}>
          <div className="field">
            <label htmlFor={`${id}-reply`}>Your reply</label>
            <textarea id={`${id}-reply`} value={reply} maxLength={MESSAGE_MAX_LENGTH} onChange={(e) => setReply(e.target.value)} />
          </div>
          <div>
            <button type="submit" className="button button-primary" disabled={busy}>
              Send Reply
            </button>
          </div>
        </form>
      )}
      {notice && (
        <p className={notice.kind === 'ok' ? 'form-success' : 'form-error'} role={notice.kind === 'ok' ? 'status' : 'alert'}>
          {notice.text}
        </p>
      )}
    </section>
  );
}
