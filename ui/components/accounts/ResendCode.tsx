import { useEffect, useId, useState } from 'react';
import { RESEND_COOLDOWN_SECONDS } from '../../../server/domain/accountRules.js';
import { isApiError } from '../../api/http.js';
import { resendCode, type CodeKind } from '../../api/accounts.js';

export interface ResendCodeProps {
  kind: CodeKind;
  /** The e-mail or username the code goes to. */
  identifier: string;
}

/**
 * 'Resend code': enabled RESEND_COOLDOWN_SECONDS after a code was sent (the screen opens right
 * after one was, and each resend starts the wait again). The server enforces the same wait.
 */
export function ResendCode({ kind, identifier }: ResendCodeProps) {
  const hintId = useId();
  const [availableAt, setAvailableAt] = useState(() => Date.now() + RESEND_COOLDOWN_SECONDS * 1000);
  const [now, setNow] = useState(() => Date.now());
  const [sending, setSending] = useState(false);
  const [status, setStatus] = useState('');
  const [problem, setProblem] = useState('');
  const waitSeconds = Math.max(0, Math.ceil((availableAt - now) / 1000));

  useEffect(() => {
    if (waitSeconds === 0) return;
    const timer = setTimeout(() => setNow(Date.now()), 1000);
    return () => clearTimeout(timer);
  }, [waitSeconds, now]);

  async function onResend() {
    setStatus('');
    if (identifier.trim() === '') {
      setProblem('Please enter your e-mail address first.');
      return;
    }
    setProblem('');
    setSending(true);
    try {
      await resendCode(kind, identifier.trim());
      const sentAt = Date.now();
      setAvailableAt(sentAt + RESEND_COOLDOWN_SECONDS * 1000);
      setNow(sentAt);
      setStatus('A new code has been sent to your e-mail address.');
    } catch (error) {
      setProblem(isApiError(error) ? error.message : 'Failed connection to the server. Please try again.');
    } finally {
      setSending(false);
    }
  }

  return (
    <div className="field">
      <button
        type="button"
        className="button button-secondary"
        disabled={waitSeconds > 0 || sending}
        aria-describedby={hintId}
        onClick={() => void onResend()}
      >
        Resend code
      </button>
      <p className="field-hint" id={hintId}>
        {waitSeconds > 0 ? `You can ask for a new code in ${waitSeconds} seconds.` : 'Did not get the e-mail? Ask for a new code.'}
      </p>
      <p className="field-hint" role="status">
        {status}
      </p>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
