import { useId, useState, type FormEvent } from 'react';
import { MESSAGE_MAX_LENGTH } from '../../../server/domain/requestMessages.js';
import { isApiError } from '../../api/http.js';
import { useModalDialog } from '../../hooks/useModalDialog.js';
import '../../styles/certificates.css';

export interface RejectDialogProps {
  /** What is rejected, e.g. '2026-0012' or 'request 41'. */
  subject: string;
  /** Rejects with the reason; a refusal (ApiError below 500) is shown in the dialog. */
  onReject: (reason: string) => Promise<void>;
  onClose: () => void;
  /** Shown when the rejection failed for another reason (server down, 5xx): SPEC section 8's text. */
  failureMessage: string;
}

/**
 * Confirms a rejection and asks its reason, which is required: the client reads it by e-mail and on
 * the request. A native modal dialog (focus trapped, Escape cancels, focus returns to the opener).
 */
export function RejectDialog({ subject, onReject, onClose, failureMessage }: RejectDialogProps) {
  const ref = useModalDialog();
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (reason.trim() === '') {
      setError('Please give the reason for the rejection.');
      return;
    }
    setBusy(true);
    setError('');
    try {
      await onReject(reason.trim());
    } catch (err) {
      console.error(`Rejecting ${subject} failed:`, err);
      setError(isApiError(err) && err.status < 500 ? err.message : failureMessage);
      setBusy(false);
    }
  }

  return (
    <dialog ref={ref} className="signature-dialog" aria-labelledby={`${id}-title`} aria-describedby={`${id}-note`} onCancel={onClose} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <h2 id={`${id}-title`}>Reject {subject}?</h2>
        <p id={`${id}-note`}>The client will be told the reason by e-mail and on the request.</p>
        <div className="field">
          <label htmlFor={`${id}-reason`}>Reason for the rejection</label>
          <textarea
            id={`${id}-reason`}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            required
            aria-required="true"
            aria-invalid={error !== '' && reason.trim() === ''}
            maxLength={MESSAGE_MAX_LENGTH}
            rows={4}
            autoFocus
          />
        </div>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="button button-negative" disabled={busy}>
            Reject
          </button>
          <button type="button" className="button button-secondary" onClick={() => ref.current?.close()}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
