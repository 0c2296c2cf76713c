import type { Middleware } from 'koa';
import { forbidden } from '../../errors.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * State-changing calls from another site are refused (with SameSite cookies, a second line of defence
 * against cross-site request forgery). Calls without an Origin header (CLI, curl) pass.
 */
export function sameOriginOnly(publicUrl?: string): Middleware {
  const allowed = publicUrl ? new URL(publicUrl).origin : undefined;
  return async (ctx, next) => {
    const origin = ctx.get('Origin');
    // Koa 3's ctx.origin echoes the Origin header, so our own origin is built from protocol and host.
    const own = `${ctx.protocol}://${ctx.host}`;
    if (!SAFE.has(ctx.method) && origin && origin !== own && origin !== allowed) {
      throw forbidden('Requests from another site are not accepted.');
    }
    await next();
  };
}
