import { failureText, type Loaded } from '../hooks/useLoad.js';

/** While `state` loads, `loading`; when it failed, the reason as an alert; nothing once its data is there. */
export function LoadStatus({ state, loading = 'Loading...' }: { state: Loaded<unknown>; loading?: string }) {
  if (state.status === 'loading') return <p role="status">{loading}</p>;
  if (state.status === 'error') {
    return (
      <p className="form-error" role="alert">
        {failureText(state.error)}
      </p>
    );
  }
  return null;
}
