import type { Middleware } from 'koa';
import { isWellFormedText, textProblem } from '../../domain/wellFormedText.js';
import { badRequest } from '../../errors.js';

/**
 * The refusal of the first string in `value` (or key: a field name is text too) that is not
 * well-formed, naming where it is (`results.0.eColi`), or undefined. Walked with a stack, not
 * recursion, so any nesting depth is safe.
 */
function firstProblem(value: unknown, name: string): string | undefined {
  const pending: Array<[unknown, string]> = [[value, name]];
  while (pending.length) {
    const [item, at] = pending.pop()!;
    // One regular expression per string; the message is only written for the one refused.
    if (typeof item === 'string') {
      if (!isWellFormedText(item)) return textProblem(at || 'The request', item);
    } else if (item && typeof item === 'object') {
      for (const [key, inner] of Object.entries(item)) {
        if (!isWellFormedText(key)) return textProblem(`A field name in ${at || 'the request'}`, key);
        pending.push([inner, at ? `${at}.${key}` : key]);
      }
    }
  }
  return undefined;
}

/** The path as the routers read their parameters (percent-decoded), or undefined when it does not decode. */
function decodedPath(path: string): string | undefined {
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

// A query of printable ASCII without escapes: every name and value parsed from it is well-formed text.
const PLAIN_QUERY = /^[\x20-\x24\x26-\x7e]*$/;

/**
 * Refuses text that is not well-formed (server/domain/wellFormedText.ts) anywhere in the path, the
 * query or the body, once at the edge for every call, with a 400 naming the field, before any route,
 * service or database sees it, so both databases answer alike. Bytes that are not UTF-8 arrive as
 * U+FFFD (Node's body and query decoding), which is refused with the rest; a path whose escapes do
 * not decode to UTF-8 is refused too. The cost is one walk of the parsed input; a plain query (the
 * screens' own) is not even parsed here.
 */
export function refuseIllFormedText(): Middleware {
  return async (ctx, next) => {
    const path = decodedPath(ctx.path);
    const problem =
      path === undefined
        ? 'The path contains an escape (%..) that is broken or does not decode to UTF-8 text.'
        : (textProblem('The path', path) ?? (PLAIN_QUERY.test(ctx.querystring) ? undefined : firstProblem(ctx.query, '')) ?? firstProblem(ctx.request.body, ''));
    if (problem) throw badRequest(problem);
    await next();
  };
}
