import { useEffect, useId, useRef } from 'react';
import { useModalDialog } from '../hooks/useModalDialog.js';
import '../styles/certificates.css';

export interface ConfirmDialogProps {
  /** The question, e.g. 'Are you sure you want to submit this request?'; it names the dialog. */
  question: string;
  /** The confirming button, e.g. 'Submit'. */
  confirmLabel: string;
  /** The button that keeps things as they are (default 'Cancel'). */
  cancelLabel?: string;
  onConfirm: () => void;
  /** Cancel, Escape or closing the dialog. */
  onCancel: () => void;
}

/**
 * An accessible confirmation in place of window.confirm: a native modal <dialog> (focus moves in and
 * is trapped, Escape cancels, focus returns to the opener), named by its question. The cancelling
 * button takes the focus, so a stray Enter changes nothing.
 */
export function ConfirmDialog({ question, confirmLabel, cancelLabel = 'Cancel', onConfirm, onCancel }: ConfirmDialogProps) {
  const ref = useModalDialog();
  const titleId = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  // After showModal (which focuses the first button): React's autoFocus runs before it, so it would not hold.
  useEffect(() => cancel.current?.focus(), []);
  return (
    <dialog ref={ref} className="signature-dialog" aria-labelledby={titleId} onCancel={onCancel} onClose={onCancel}>
      <h2 id={titleId}>{question}</h2>
      <div className="actions">
        <button type="button" className="button button-primary" onClick={onConfirm}>
          {confirmLabel}
        </button>
        <button ref={cancel} type="button" className="button button-secondary" onClick={() => ref.current?.close()}>
          {cancelLabel}
        </button>
      </div>
    </dialog>
  );
}
