import type { Middleware } from 'koa';
import { badRequest } from '../../errors.js';

const NUL = '\u0000';

/** Whether any string in `value` (walked without recursion, so any nesting depth is safe) holds a NUL. */
function holdsNul(value: unknown): boolean {
  const pending = [value];
  while (pending.length) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (item.includes(NUL)) return true;
    } else if (item && typeof item === 'object') {
      for (const [key, inner] of Object.entries(item)) {
        if (key.includes(NUL)) return true;
        pending.push(inner);
      }
    }
  }
  return false;
}

/**
 * Refuses a NUL character anywhere in the query or body, like a body that is not JSON. No field
 * accepts one, and PostgreSQL cannot store one in text (SQLite can), so it is refused once, at the
 * edge, for every call. Path parameters are parsed by their routes' schemas.
 */
export function refuseNulCharacters(): Middleware {
  return async (ctx, next) => {
    if (holdsNul(ctx.query) || holdsNul(ctx.request.body)) {
      throw badRequest('The request contains a NUL character (\\u0000), which no field accepts.');
    }
    await next();
  };
}
