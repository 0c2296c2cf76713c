// The paging parameters of the request lists, `limit` and `offset`, checked the same way by the API
// (`?limit=&offset=`) and by `labctl requests list --limit --offset`. Pure.
import { z } from 'zod';

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
/** `limit` and `offset` of a list that is paged by default, DEFAULT_PAGE_SIZE rows at a time. */
export const PagedQuery = z.object({ limit: limit.default(DEFAULT_PAGE_SIZE), offset: offset.default(0) });
