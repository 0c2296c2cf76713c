// Paging of the request lists: `?limit=` and `?offset=` checked with zod, the page's rows as the JSON
// array body (the shape SPEC section 7 gives these lists), and where the page sits in headers:
// X-Total-Count (rows in the whole list) and, while rows remain, a Link to the next page (RFC 8288).
import { z } from 'zod';
import type { Page, PageRequest } from '../services/requests/lists.js';
import { parseInput } from '../validation.js';
import type { AppContext } from './context.js';

/** The largest page a call answers. */
export const MAX_PAGE_SIZE = 500;
/** The page size of lists that are paged by default (GET requests/released). */
export const DEFAULT_PAGE_SIZE = 100;

const limit = z.coerce
  .number('must be a number')
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`);
const offset = z.coerce.number('must be a number').int('must be a whole number').min(0, 'must not be negative').max(2_147_483_647, 'is too large');

/** `limit` and `offset` of a list that is whole by default (also `labctl requests list --limit --offset`). */
export const PageQuery = z.object({ limit: limit.optional(), offset: offset.default(0) });
const Paged = z.object({ limit: limit.default(DEFAULT_PAGE_SIZE), offset: offset.default(0) });

/** The page the query asks for: by default the whole list, or the first DEFAULT_PAGE_SIZE rows when `paged`. */
export function pageAsked(ctx: AppContext, { paged }: { paged: boolean }): PageRequest {
  return parseInput(paged ? Paged : PageQuery, ctx.query);
}

/** Answers `page` of the list `asked` for: its rows as the body, X-Total-Count, and Link rel="next" while rows remain. */
export function answerPage<T>(ctx: AppContext, asked: PageRequest, page: Page<T>): void {
  ctx.set('X-Total-Count', String(page.total));
  const next = (asked.offset ?? 0) + page.rows.length;
  if (asked.limit !== undefined && next < page.total) {
    ctx.set('Link', `<${ctx.path}?${new URLSearchParams({ limit: String(asked.limit), offset: String(next) })}>; rel="next"`);
  }
  ctx.body = page.rows;
}
