/**
 * Unsaved result entries kept in localStorage per tester and request until they are saved, so a
 * reload, a crash or an expired session loses nothing the tester typed.
 */
import type { ResultDraft } from './drafts.js';

const keyOf = (userId: string, requestId: number) => `lab.resultDrafts.${userId}.${requestId}`;

function store(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function readLocalDrafts(userId: string, requestId: number): Record<string, ResultDraft> {
  try {
    const parsed: unknown = JSON.parse(store()?.getItem(keyOf(userId, requestId)) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, ResultDraft>) : {};
  } catch {
    return {};
  }
}

export function hasLocalDrafts(userId: string, requestId: number): boolean {
  return Object.keys(readLocalDrafts(userId, requestId)).length > 0;
}

/** Keeps `drafts` (only the unsaved ones), or forgets them when there are none. */
export function writeLocalDrafts(userId: string, requestId: number, drafts: Record<string, ResultDraft>): void {
  if (Object.keys(drafts).length === 0) store()?.removeItem(keyOf(userId, requestId));
  else store()?.setItem(keyOf(userId, requestId), JSON.stringify(drafts));
}
