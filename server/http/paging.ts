// Paging of the request lists: `?limit=` and `?offset=` checked with zod, the page's rows as the JSON
// array body (the shape SPEC section 7 gives these lists), and where the page sits in headers:
// X-Total-Count (rows in the whole list) and, while rows remain, a Link to the next page (RFC 8288),
// which for a keyset-paged list is the same call with the cursor `after` its last row.
import { PagedQuery, PageQuery } from '../domain/paging.js';
import type { Page, PageRequest } from '../services/requests/lists.js';
import { parseInput } from '../validation.js';
import type { AppContext } from './context.js';

/** The page the query asks for: by default the whole list, or the first DEFAULT_PAGE_SIZE rows when `paged`. */
export function pageAsked(ctx: AppContext, { paged }: { paged: boolean }): PageRequest {
  return parseInput(paged ? PagedQuery : PageQuery, ctx.query);
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

/** Link rel="next": this call again with `after` (a keyset cursor) instead of its own, and without the parameters `dropped`. */
export function linkNextAfter(ctx: AppContext, after: string, dropped: readonly string[] = []): void {
  const params = new URLSearchParams(ctx.querystring);
  for (const name of dropped) params.delete(name);
  params.set('after', after);
  ctx.set('Link', `<${ctx.path}?${params}>; rel="next"`);
}
