import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { getNextPendingRequest } from '../../api/queues.js';
import { failureText } from '../../hooks/useLoad.js';

/**
 * 'Next pending request': asks the pending queue for its oldest request (one call, one row) and
 * opens its details; says so when none is left.
 */
export function NextPendingButton({ userId }: { userId: string }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ kind: 'empty' | 'error'; text: string } | null>(null);

  async function openNext() {
    setBusy(true);
    setNotice(null);
    try {
      const next = await getNextPendingRequest();
      if (next) {
        navigate(`/request-details/${userId}/${next.requestId}`);
        return;
      }
      setNotice({ kind: 'empty', text: 'There are no pending requests as of the moment.' });
    } catch (error) {
      setNotice({ kind: 'error', text: failureText(error) });
    }
    setBusy(false);
  }

  return (
    <>
      <button type="button" className="button button-secondary" disabled={busy} onClick={() => void openNext()}>
        Next pending request
      </button>
      {notice && (
        <p className={notice.kind === 'error' ? 'form-error' : 'muted'} role={notice.kind === 'error' ? 'alert' : 'status'}>
          {notice.text}
        </p>
      )}
    </>
  );
}
