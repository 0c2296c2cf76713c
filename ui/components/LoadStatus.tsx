import { failureText, type Loaded } from '../hooks/useLoad.js';

/**
 * While `state` loads, `loading`; when it failed, the reason as an alert; nothing once its data is
 * there. `fill`, for a screen's one load of its whole content: the loading line fills the window, so
 * the footer waits below it instead of being pushed down when the content arrives (a layout shift).
 * `onRetry` (useRetryableLoad's retry) adds a Retry button to the failure.
 */
export function LoadStatus({
  state,
  loading = 'Loading...',
  fill = false,
  onRetry,
}: {
  state: Loaded<unknown>;
  loading?: string;
  fill?: boolean;
  onRetry?: () => void;
}) {
  if (state.status === 'loading') {
    return (
      <p role="status" className={fill ? 'frame-loading' : undefined}>
        {loading}
      </p>
    );
  }
  if (state.status === 'error' && onRetry) {
    return (
      <div className="load-error" role="alert">
        <p className="form-error">{failureText(state.error)}</p>
        <button type="button" className="button button-secondary" onClick={onRetry}>
          Retry
        </button>
      </div>
    );
  }
  if (state.status === 'error') {
    return (
      <p className="form-error" role="alert">
        {failureText(state.error)}
      </p>
    );
  }
  return null;
}
