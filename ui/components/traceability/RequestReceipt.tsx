import { useCallback } from 'react';
import { getReceipt } from '../../api/traceability.js';
import { useLoad } from '../../hooks/useLoad.js';
import { ReceiptNote } from './ReceiptNote.js';

/** The receipt of a request when its samples have arrived; nothing before (or when it cannot load). */
export function RequestReceipt({ requestId }: { requestId: string | number }) {
  const state = useLoad(useCallback((signal: AbortSignal) => getReceipt(requestId, signal), [requestId]));
  if (state.status !== 'ready' || state.data === null) return null;
  return (
    <section aria-label="Sample reception">
      <h2>Sample Reception</h2>
      <ReceiptNote receipt={state.data} />
    </section>
  );
}
