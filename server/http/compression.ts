// How answers are compressed, in one place for koa-compress (app.ts) and the cached answers
// (middleware/cachedRead.ts), which store theirs compressed already: nothing under 1 KB; brotli at
// quality 4, which costs about what gzip does. A cached answer is compressed once and sent many
// times, so it is worth more: quality 5 made a first page of 50 for-testing rows 9 % smaller (3,937
// bytes, now 3,592) for 0.4 ms more, once; and one sent very often, the best quality (below).
import zlib from 'node:zlib';

export const COMPRESS_FROM_BYTES = 1024;

export const BROTLI_OPTIONS: zlib.BrotliOptions = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

/** A cached answer's brotli settings: quality 5, told the size and that it is text. */
export const cachedBrotliOptions = (bytes: number): zlib.BrotliOptions => ({
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes },
});

/**
 * Brotli's best quality (11), for a cached answer sent often enough to pay for it: the same page
 * 22 % smaller than at quality 4 (3,084 bytes), but 110-150 ms to compress, so never while a caller
 * waits. On two cores with the load generator beside the servers, bytes sent cost a cached read more
 * than anything else: a bare Koa answering 3,000 random bytes answered 19,000-23,000 calls a second,
 * and 12,500-14,500 with 3,900.
 */
export const BEST_BROTLI_OPTIONS: zlib.BrotliOptions = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT } };
