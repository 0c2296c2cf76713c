import type { Middleware } from 'koa';
import type { AppDeps, AppState } from '../context.js';

/** Methods that write nothing a screen shows (a GET may touch the session's last-seen, which no other answer shows). */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A call that may have written is answered only once every instance's next read shows what it
 * committed (ReadCache.afterWrite): whichever instance the caller's next call lands on, it sees its
 * own write. Whatever the outcome: a call that failed may still have committed (a rate-limit count).
 */
export function visibleWrites(deps: AppDeps): Middleware<AppState> {
  const { reads } = deps;
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      if (reads && !READS.has(ctx.method)) await reads.afterWrite();
    }
  };
}
