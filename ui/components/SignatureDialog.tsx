import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { isApiError } from '../api/http.js';
import { useModalDialog } from '../hooks/useModalDialog.js';
import { PasswordField } from './PasswordField.js';
import '../styles/certificates.css';

export interface SignatureDialogProps {
  title: string;
  /** What the signature means, shown before signing (21 CFR 11.50). */
  meaning: string;
  /** Label of the signing button, e.g. 'Sign and release'. */
  signLabel: string;
  /** Does the signed action; a refusal (wrong password, bad input) is an ApiError shown in the dialog. */
  onSign: (password: string) => Promise<void>;
  onClose: () => void;
  /** Shown when the action failed for another reason than a refusal (server down, 5xx). */
  failureMessage: string;
  /** More fields the signed action needs (an amendment's reason and results). */
  children?: ReactNode;
}

/**
 * A modal dialog (the native <dialog>: focus moves in and is trapped, Escape closes, focus returns) asking the
 * signed-in user's password again to sign an action. The server's refusal is announced in the dialog.
 */
export function SignatureDialog({ title, meaning, signLabel, onSign, onClose, failureMessage, children }: SignatureDialogProps) {
  const ref = useModalDialog();
  const titleId = useId();
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      await onSign(password);
    } catch (err) {
      console.error(`${title} failed:`, err);
      setError(isApiError(err) && err.status < 500 ? err.message : failureMessage);
      setBusy(false);
    }
  }

  return (
    <dialog ref={ref} className="signature-dialog" aria-labelledby={titleId} onCancel={onClose} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)}>
        <h2 id={titleId}>{title}</h2>
        {children}
        <p className="signature-meaning">
          Signing means: <strong>{meaning}</strong>
        </p>
        <PasswordField label="Your password" value={password} onValueChange={setPassword} autoComplete="current-password" required autoFocus />
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={busy || password === ''}>
            {signLabel}
          </button>
          <button type="button" className="button button-secondary" onClick={() => ref.current?.close()}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
