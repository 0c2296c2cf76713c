import type { Middleware } from 'koa';
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';

interface HttpishError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  message?: string;
}

/** Turns every error into `{ "message" }`: AppErrors and client errors keep their status; bugs become a 500 without details. */
export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (err instanceof AppError) {
        ctx.status = err.status;
        ctx.body = { message: err.message };
        return;
      }
      const e = err as HttpishError;
      const status = e?.status ?? e?.statusCode;
      if (status && status >= 400 && status < 500) {
        // Body parser and similar: malformed JSON, payload too large, unsupported type.
        ctx.status = status;
        ctx.body = { message: e.expose && e.message ? e.message : 'The request could not be read.' };
        return;
      }
      logger.error({ err, method: ctx.method, path: ctx.path }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { message: 'Something went wrong on our side. Please try again.' };
    }
  };
}
