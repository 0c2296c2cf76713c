import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { badRequest } from '../../errors.js';

type BodyParserOptions = Parameters<typeof bodyParser>[0];

/**
 * The JSON/form body parser, with every failure of its own answered as the caller's mistake: a body
 * that does not match its Content-Encoding (gzip that is not gzip) makes zlib throw an error without
 * an HTTP status, which would otherwise be a 500. Errors of later middleware are not touched.
 */
export function readBody(options: BodyParserOptions): Middleware {
  const parse = bodyParser(options);
  return async (ctx, next) => {
    try {
      await parse(ctx, async () => undefined);
    } catch (err) {
      const status = (err as { status?: number }).status;
      if (status && status >= 400 && status < 500) throw err;
      throw badRequest('The request body could not be read: it does not match its Content-Encoding.');
    }
    await next();
  };
}
