import { failureText } from '../../hooks/useLoad.js';
import type { Queue } from '../../hooks/useQueue.js';

/**
 * Beneath a work queue: 'Loading...', the empty message, a failed load said as such with Retry
 * (never an empty table that reads as "no work"), and "Show more" while pages remain.
 */
export function QueueFooter({ queue, empty, what }: { queue: Omit<Queue<unknown>, 'update'>; empty: string; what: string }) {
  const { state } = queue;
  if (state.status === 'loading') {
    return (
      <p className="empty" role="status">
        Loading...
      </p>
    );
  }
  // Beneath the last list's rows, which stay until the next one comes: said, not a second status.
  if (queue.refreshing) {
    return (
      <p className="empty" aria-live="polite">
        Loading...
      </p>
    );
  }
  if (state.status === 'error') {
    return (
      <div className="queue-error" role="alert">
        <p>
          The {what} could not be loaded: {failureText(state.error)}
        </p>
        <button type="button" className="button button-secondary button-small" onClick={queue.retry}>
          Retry
        </button>
      </div>
    );
  }
  return (
    <>
      {queue.rows.length === 0 && <p className="empty">{empty}</p>}
      {queue.moreError !== null && (
        <p className="form-error" role="alert">
          The next page could not be loaded: {failureText(queue.moreError)}
        </p>
      )}
      {queue.hasMore && (
        <p className="queue-more">
          <button type="button" className="button button-secondary" disabled={queue.loadingMore} onClick={queue.loadMore}>
            {queue.loadingMore ? 'Loading...' : 'Show more'}
          </button>
        </p>
      )}
    </>
  );
}
