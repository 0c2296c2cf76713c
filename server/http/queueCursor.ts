// The keyset cursors of the paged lists (the work queues, the turnaround dashboard) as URLs carry
// them: base64url of `[order, ...keys, id]`, opaque to callers, so the paging scheme can change
// without breaking a link someone kept. The order is part of it: a cursor of one order means nothing
// in another.
import type { QueueCursor, QueueSort } from '../domain/queue.js';

/** Where a page ended in `order`: its last row's sort keys and id. */
export function encodeKeyset(order: string, keys: readonly string[], id: number): string {
  return Buffer.from(JSON.stringify([order, ...keys, id])).toString('base64url');
}

/** The cursor a URL carried, with `keyCount` sort keys, or null when it is not one this API wrote. */
export function decodeKeyset(text: string, keyCount: number): { order: string; keys: string[]; id: number } | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== keyCount + 2) return null;
    const [order, ...rest] = parsed as unknown[];
    const id = rest.pop();
    const keys = rest.filter((key): key is string => typeof key === 'string' && key.length <= 40);
    if (typeof order !== 'string' || keys.length !== keyCount) return null;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) return null;
    return { order, keys, id };
  } catch {
    return null;
  }
}

export function encodeCursor(sort: QueueSort, cursor: QueueCursor): string {
  return encodeKeyset(sort, [cursor.key], cursor.id);
}

/** A work queue's cursor and the sort it belongs to, or null when it is not one this API wrote. */
export function decodeCursor(text: string): { sort: string; cursor: QueueCursor } | null {
  const decoded = decodeKeyset(text, 1);
  return decoded && { sort: decoded.order, cursor: { key: decoded.keys[0], id: decoded.id } };
}
