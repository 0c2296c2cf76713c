import { isApiError } from '../../api/http.js';

/**
 * The alert for a refused account call: the spec's text, except for a rate-limit refusal (429),
 * whose own message says when to try again (the spec's texts would send the user guessing).
 */
export function refusalText(error: unknown, specText: string): string {
  return isApiError(error) && error.status === 429 ? error.message : specText;
}

/** The `message` of the server's JSON error body, when it sent one. */
export function serverMessage(error: unknown): string | undefined {
  if (!isApiError(error) || !error.body || typeof error.body !== 'object') return undefined;
  const { message } = error.body as { message?: unknown };
  return typeof message === 'string' && message !== '' ? message : undefined;
}
