import type { Middleware } from 'koa';
import { redactUrl, type Logger } from '../../logger.js';

/** One line per call: method, URL with secrets masked, status, duration. Bodies are never logged. */
export function requestLog(logger: Logger): Middleware {
  // The line's fields are fixed and its URL is masked here, so it skips the logger's general redaction,
  // which cost as much again as the rest of the line (LOG_LEVEL=info, the default of `labctl serve`,
  // logs every call).
  const access = logger.child({}, { redact: [] });
  return async (ctx, next) => {
    if (!access.isLevelEnabled('info')) return next();
    const started = performance.now();
    try {
      await next();
    } finally {
      access.info({ method: ctx.method, url: redactUrl(ctx.originalUrl), status: ctx.status, ms: Math.round(performance.now() - started) }, 'request');
    }
  };
}
