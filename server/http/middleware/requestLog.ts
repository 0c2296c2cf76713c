import type { Middleware } from 'koa';
import { redactUrl, type Logger } from '../../logger.js';

/** One line per call: method, URL with secrets masked, status, duration. Bodies are never logged. */
export function requestLog(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      logger.info(
        { method: ctx.method, url: redactUrl(ctx.originalUrl), status: ctx.status, ms: Math.round(performance.now() - started) },
        'request',
      );
    }
  };
}
