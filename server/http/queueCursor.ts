// The keyset cursor of the work queues as URLs carry it: base64url of `[sort, key, id]`, opaque to
// callers, so the paging scheme can change without breaking a link someone kept. The sort is part of
// it: a cursor of one order means nothing in another.
import type { QueueCursor, QueueSort } from '../domain/queue.js';

export function encodeCursor(sort: QueueSort, cursor: QueueCursor): string {
  return Buffer.from(JSON.stringify([sort, cursor.key, cursor.id])).toString('base64url');
}

/** The cursor a URL carried and the sort it belongs to, or null when it is not one this API wrote. */
export function decodeCursor(text: string): { sort: string; cursor: QueueCursor } | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 3) return null;
    const [sort, key, id] = parsed as unknown[];
    if (typeof sort !== 'string' || typeof key !== 'string' || key.length > 40) return null;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) return null;
    return { sort, cursor: { key, id } };
  } catch {
    return null;
  }
}
