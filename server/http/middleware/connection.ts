// What the server believes about the caller's connection. X-Forwarded-For/-Proto are honoured only
// with TRUST_PROXY (app.proxy), and then only the address our own proxy appended; whatever the
// source, the address kept for rate limits and the audit log is a valid IP of bounded length.
import net from 'node:net';
import type { Middleware } from 'koa';
import type { Config } from '../../config.js';

// The longest textual IPv6 address, with an embedded IPv4 part.
const MAX_ADDRESS_LENGTH = 45;
const UNKNOWN_ADDRESS = 'unknown';

const validAddress = (text: string | undefined) => (text && text.length <= MAX_ADDRESS_LENGTH && net.isIP(text) ? text : undefined);

/** Replaces ctx.ip by a validated address: the forwarded one when trusted and valid, else the socket's. */
export function clientAddress(): Middleware {
  return async (ctx, next) => {
    ctx.request.ip = validAddress(ctx.request.ip) ?? validAddress(ctx.socket.remoteAddress) ?? UNKNOWN_ADDRESS;
    await next();
  };
}

/**
 * Cookies are Secure whenever the portal's public address is https, whatever a proxy says: behind an
 * untrusted or silent proxy the hop to us is plain http, but the browser talks https.
 */
export function secureCookies(config: Pick<Config, 'publicUrl'>): Middleware {
  const https = Boolean(config.publicUrl?.startsWith('https://'));
  return async (ctx, next) => {
    if (https) ctx.cookies.secure = true;
    await next();
  };
}
