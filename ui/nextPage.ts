/**
 * The page to return to after logging in, carried in the login screens' `?next=` (set when a call
 * found the session gone). Pure, so it is unit-tested: only a path of this portal is followed, never
 * another site (an open redirect would let a link to our login send people anywhere).
 */

/** Any origin works for resolving: what matters is that the path cannot leave it. */
const BASE = 'http://portal.invalid';

/** The login screens themselves: returning there after logging in would loop. */
const LOGIN_SCREENS = /^\/(login|tfa)(\/|$)/;

/**
 * `next` when it is a same-origin relative path ('/track-my-request/12?x=1'), normalised; null for
 * anything else: absolute or protocol-relative URLs ('//evil.example', '/\\evil.example'), schemes
 * ('javascript:...'), control characters or spaces, relative paths without the leading slash, and the
 * login screens.
 */
export function safeNextPath(next: string | null | undefined): string | null {
  if (typeof next !== 'string' || next.length === 0 || next.length > 2000) return null;
  // Browsers read '\' as '/' and drop tabs and newlines, which turns '/\evil' into '//evil'.
  if (!next.startsWith('/') || /[\\\s]/.test(next) || [...next].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return null;
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return LOGIN_SCREENS.test(url.pathname) ? null : path;
}

/** `path` with the page to return to after logging in, when there is a safe one. */
export function withNextPage(path: string, next: string | null): string {
  return next ? `${path}?next=${encodeURIComponent(next)}` : path;
}
