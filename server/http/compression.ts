// How answers are compressed, in one place for koa-compress (app.ts) and the cached answers
// (middleware/cachedRead.ts), which store theirs compressed already: nothing under 1 KB; brotli at
// quality 4, which costs about what gzip does.
import zlib from 'node:zlib';

export const COMPRESS_FROM_BYTES = 1024;

export const BROTLI_OPTIONS: zlib.BrotliOptions = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };
