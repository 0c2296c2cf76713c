// The security headers (helmet) on every answer. Our helmet options give the same headers to every
// call, so helmet runs once, on a recording response, and each call sets what it recorded: running
// helmet's dozen middlewares per call was a twelfth of a cached answer's time.
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { Middleware } from 'koa';

/** The headers `helmet(options)` sets on a response. */
export function helmetHeaders(options: HelmetOptions): [string, string][] {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  let done = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
    done = true;
  });
  // helmet is synchronous; were it not, the headers would be incomplete.
  if (!done) throw new Error('helmet did not finish synchronously');
  return [...headers];
}

export function securityHeaders(options: HelmetOptions): Middleware {
  const headers = helmetHeaders(options);
  return (ctx, next) => {
    for (const [name, value] of headers) ctx.res.setHeader(name, value);
    return next();
  };
}
