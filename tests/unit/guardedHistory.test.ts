import { UNSAFE_createMemoryHistory as createMemoryHistory, type Location } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { guardHistory, leavingPage } from '../../ui/guardedHistory.js';

// The bench screen's blocker, as hooks/useUnsavedGuard.tsx registers it while its entries are unsaved.
const leavesPage = leavingPage('/bench');

/** A history at /home, /bench?q=1, /bench?q=2, /other with the bench's last view shown (index 2). */
function setUp() {
  const inner = createMemoryHistory({ initialEntries: ['/home', '/bench?q=1', '/bench?q=2', '/other'], initialIndex: 2, v5Compat: true });
  const guarded = guardHistory(inner);
  const seen: string[] = [];
  guarded.history.listen(({ location }: { location: Location }) => seen.push(location.pathname + location.search));
  const here = () => inner.location.pathname + inner.location.search;
  return { ...guarded, inner, seen, here };
}

describe('the page history that holds a move away from unsaved entries', () => {
  it('moves freely while nothing blocks', () => {
    const { history, seen, here, pending } = setUp();
    history.push('/elsewhere');
    history.go(-1);
    expect(seen).toEqual(['/elsewhere', '/bench?q=2']);
    expect(here()).toBe('/bench?q=2');
    expect(pending()).toBeNull();
  });

  it('holds a push to another page until Leave, and forgets it on Stay', () => {
    const { history, seen, here, pending, block } = setUp();
    block(leavesPage);
    history.push('/home');
    expect(pending()).not.toBeNull();
    expect(seen).toEqual([]);
    pending()!.reset();
    expect(pending()).toBeNull();
    expect(here()).toBe('/bench?q=2');
    history.replace('/home');
    pending()!.proceed();
    expect(pending()).toBeNull();
    expect(seen).toEqual(['/home']);
  });

  it('lets a change of the query alone and a move to /login through', () => {
    const { history, seen, pending, block } = setUp();
    block(leavesPage);
    history.push('/bench?q=3');
    history.replace('/login');
    expect(pending()).toBeNull();
    expect(seen).toEqual(['/bench?q=3', '/login']);
  });

  it('undoes a held back or forward at once; Stay keeps the page, Leave moves once, by the same steps', () => {
    const { history, seen, here, pending, block } = setUp();
    let unblock = block(leavesPage);
    // Back within the page (the query) passes; the next back would leave it.
    history.go(-1);
    expect(seen).toEqual(['/bench?q=1']);
    history.go(-1);
    expect(here()).toBe('/bench?q=1');
    expect(seen).toEqual(['/bench?q=1']);
    pending()!.reset();
    expect(here()).toBe('/bench?q=1');
    history.go(-1);
    pending()!.proceed();
    expect(here()).toBe('/home');
    expect(seen).toEqual(['/bench?q=1', '/home']);
    expect(pending()).toBeNull();
    // The bench screen is gone with its blocker; forward returns to it, whose entries are unsaved
    // again, and two steps forward (to /other) are held, then taken in one move.
    unblock();
    history.go(1);
    expect(here()).toBe('/bench?q=1');
    unblock = block(leavesPage);
    history.go(2);
    expect(here()).toBe('/bench?q=1');
    pending()!.proceed();
    expect(here()).toBe('/other');
    expect(seen).toEqual(['/bench?q=1', '/home', '/bench?q=1', '/other']);
    unblock();
  });

  it('lets Back through right after Leave, while the screen left is still mounted with its blocker', () => {
    const { history, seen, here, pending, block } = setUp();
    const unblock = block(leavesPage);
    history.push('/home');
    pending()!.proceed();
    expect(seen).toEqual(['/home']);
    // The next page is still loading, so the bench has not unmounted yet: Back returns to it at once.
    history.go(-1);
    expect(pending()).toBeNull();
    expect(here()).toBe('/bench?q=2');
    expect(seen).toEqual(['/home', '/bench?q=2']);
    unblock();
  });

  it('forgets a held move when its blocker goes (the screen saved or closed)', () => {
    const { history, pending, block } = setUp();
    const unblock = block(leavesPage);
    history.push('/home');
    expect(pending()).not.toBeNull();
    unblock();
    expect(pending()).toBeNull();
  });
});
