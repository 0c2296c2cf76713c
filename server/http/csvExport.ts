// A CSV download (the lists' `format=csv`), streamed as its chunks are read, so a list of any length
// is neither held in memory nor waited for before the first byte.
import { Readable } from 'node:stream';
import type { AppContext } from './context.js';

export function sendCsv(ctx: AppContext, fileName: string, chunks: AsyncIterable<string>): void {
  ctx.type = 'text/csv; charset=utf-8';
  ctx.attachment(fileName);
  ctx.body = Readable.from(chunks);
}
