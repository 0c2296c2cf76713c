/**
 * The one fetch wrapper every api module uses.
 *
 * - Same origin only: paths are the server's own ('/me', 'requests/pending', ...; a missing leading
 *   slash is added), cookies travel with `credentials: 'same-origin'`.
 * - Bodies are JSON. Responses are read as JSON or as text depending on the helper.
 * - A non-ok response throws an `ApiError` with the HTTP status and a message read from the JSON
 *   error body `{"message": "..."}` (else a short text/plain body, else the status text).
 * - A failed connection is NOT an ApiError: fetch's own TypeError propagates, so callers can tell
 *   "the server said no" (ApiError) from "the server could not be reached" (anything else).
 */

export class ApiError extends Error {
  readonly status: number;
  /** The parsed JSON error body, when there was one. */
  readonly body: unknown;

  constructor(status: number, message: string, body?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Query values; null and undefined are left out. */
export type QueryParams = Record<string, string | number | boolean | null | undefined>;

/** `withQuery('/check-user', { identifier: 'a@b.c' })` -> '/check-user?identifier=a%40b.c'. */
export function withQuery(path: string, params: QueryParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined) search.append(key, String(value));
  }
  const query = search.toString();
  if (query === '') return path;
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}

/** Encodes one path segment (keeps '@' readable, as in /tfa/client@demo.lab). */
export function segment(value: string | number): string {
  return encodeURIComponent(String(value)).replace(/%40/g, '@');
}

function normalizePath(path: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('//')) {
    throw new Error(`Only same-origin paths are allowed, got ${path}`);
  }
  return path.startsWith('/') ? path : `/${path}`;
}

const MAX_TEXT_MESSAGE = 300;

async function errorFrom(response: Response): Promise<ApiError> {
  const fallback = response.statusText || `Request failed with status ${response.status}`;
  let text = '';
  try {
    text = await response.text();
  } catch {
    return new ApiError(response.status, fallback);
  }
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json') || /^\s*[{[]/.test(text)) {
    try {
      const body: unknown = JSON.parse(text);
      if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string' && body.message) {
        return new ApiError(response.status, body.message, body);
      }
      return new ApiError(response.status, fallback, body);
    } catch {
      // not JSON after all: fall through
    }
  }
  const plain = text.trim();
  if (type.startsWith('text/plain') && plain !== '' && plain.length <= MAX_TEXT_MESSAGE) {
    return new ApiError(response.status, plain);
  }
  return new ApiError(response.status, fallback);
}

export interface RequestOptions {
  /** Sent as JSON when not undefined. */
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** Dispatched on window when a call answers 401: the session is gone (ui/session.tsx sends the user to log in). */
export const UNAUTHORIZED_EVENT = 'lab:unauthorized';

/** Calls whose 401 means wrong credentials or code, not a lost session: they never send anyone to log in. */
const CREDENTIAL_CALLS = /^\/(login|verify-otp|verify-otp-password|clientverify|change-password|resend-code)$/;

/**
 * Sends one request and returns the ok Response (body unread). Throws ApiError on non-ok.
 * Prefer the typed helpers below.
 */
export async function request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = {
    Accept: 'application/json, text/plain;q=0.9, */*;q=0.5',
    ...options.headers,
  };
  const init: RequestInit = { method, headers, credentials: 'same-origin', signal: options.signal };
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  const response = await fetch(normalizePath(path), init);
  if (response.status === 401 && !CREDENTIAL_CALLS.test(new URL(response.url || path, window.location.href).pathname)) {
    window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
  }
  if (!response.ok) throw await errorFrom(response);
  return response;
}

/** Parses a JSON body; an empty body (e.g. 204) gives undefined. */
async function readJson<T>(response: Response): Promise<T> {
  const text = await response.text();
  if (text.trim() === '') return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError(response.status, 'The server sent an unreadable answer.');
  }
}

export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  return readJson<T>(await request('GET', path, { signal }));
}

export async function getText(path: string, signal?: AbortSignal): Promise<string> {
  return (await request('GET', path, { signal })).text();
}

export async function postJson<T>(path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  return readJson<T>(await request('POST', path, { body, signal }));
}

/** POST with a JSON body, answer read as text (e.g. POST /verify-otp answers `client/12`). */
export async function postText(path: string, body?: unknown, signal?: AbortSignal): Promise<string> {
  return (await request('POST', path, { body, signal })).text();
}

export async function putJson<T>(path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  return readJson<T>(await request('PUT', path, { body, signal }));
}

export async function putText(path: string, body?: unknown, signal?: AbortSignal): Promise<string> {
  return (await request('PUT', path, { body, signal })).text();
}

export async function deleteJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  return readJson<T>(await request('DELETE', path, { signal }));
}

/** The path of the next page a keyset-paged answer names in its Link rel="next", or null on the last page. */
export function nextPageOf(response: Response): string | null {
  return /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('Link') ?? '')?.[1] ?? null;
}
