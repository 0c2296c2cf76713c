import { useCallback, useEffect, useState } from 'react';
import { isApiError } from '../api/http.js';

export type Loaded<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; error: unknown };

/**
 * Runs `load` once per identity (wrap it in useCallback with its parameters) and tells where it is;
 * the call is aborted when the screen goes away or the parameters change. A new `attempt` runs it
 * again (useRetryableLoad).
 *
 *   const state = useLoad(useCallback((signal) => listClientRequests(userId, signal), [userId]));
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, attempt = 0): Loaded<T> {
  const [done, setDone] = useState<{ load: typeof load; attempt: number; result: Loaded<T> } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setDone({ load, attempt, result: { status: 'ready', data } });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setDone({ load, attempt, result: { status: 'error', error } });
      },
    );
    return () => controller.abort();
  }, [load, attempt]);
  return done?.load === load && done.attempt === attempt ? done.result : { status: 'loading' };
}

/** A load that can be tried again. */
export interface Retryable<T> {
  state: Loaded<T>;
  retry: () => void;
}

/** useLoad with a second try: `retry` runs `load` again ('Loading...' meanwhile), for a failed load's Retry button. */
export function useRetryableLoad<T>(load: (signal: AbortSignal) => Promise<T>): Retryable<T> {
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state: useLoad(load, attempt), retry };
}

/**
 * `call`, with its failure written to the console (unless the screen aborted it) and passed on: for
 * the lists that SPEC section 8 only logs when they fail, leaving the screen empty.
 */
export async function logFailure<T>(what: string, signal: AbortSignal, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (!signal.aborted) console.error(what, error);
    throw error;
  }
}

/** What to tell the user about a failed call: the server's message, or that it could not be reached. */
export function failureText(error: unknown): string {
  return isApiError(error) ? error.message : 'Could not reach the server. Please check your connection and try again.';
}
