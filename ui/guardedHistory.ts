import type { HistoryRouterProps, Location, To } from 'react-router-dom';
import { parsePath } from 'react-router-dom';

/**
 * The portal's history: react-router's browser history, with a way to hold a move away from a screen
 * that has unsaved entries (hooks/useUnsavedGuard.tsx) until the user answers an in-page question.
 *
 * Why not react-router's own useBlocker: it needs a data router (createBrowserRouter), which brings
 * the whole router core (loaders, actions, fetchers, revalidation) into the login page's scripts
 * for this one feature. A declarative router (<unstable_HistoryRouter>, main.tsx) with this wrapper
 * does the same for what the portal uses, in a few lines, the way the data router does it:
 *
 * - A push or replace (a link, navigate(), the header's Home) asks the active blockers first; if
 *   one holds it, nothing moves and `pending` names it. Leave performs the same push or replace;
 *   Stay forgets it.
 * - Back and forward (POP) have already moved the address when we hear of them, so a held POP is
 *   undone at once with go(-delta) (the browser history keeps each entry's index in history.state,
 *   so delta is exact) and the router never sees it. That undoing POP is swallowed. Leave replays it
 *   with go(delta), let through once; Stay leaves things as they are. A POP whose delta is unknown
 *   (an entry the router did not make, e.g. a #fragment) cannot be undone exactly and is let through.
 */
export type History = HistoryRouterProps['history'];
type Listener = Parameters<History['listen']>[0];
type Update = Parameters<Listener>[0];

/** Decides whether a move from `currentLocation` to `nextLocation` must be held. */
export type Blocker = (move: { currentLocation: Location; nextLocation: Location }) => boolean;

/**
 * The blocker of a screen at `page` (a pathname): it holds moves away from that page only. A move to
 * /login is never held: it is Log out (the header asks first) or an expired session (the drafts stay
 * on this computer and the user comes back to the same page after logging in). Changes of the query
 * alone (a list's search or paging) stay on the page. A move from another page passes: after Leave,
 * the screen may still be mounted while the next one loads, and a quick Back must not be held (and
 * then dropped when the screen goes) by a question about a page already left.
 */
export const leavingPage = (page: string): Blocker => ({ currentLocation, nextLocation }) =>
  currentLocation.pathname === page && nextLocation.pathname !== '/login' && nextLocation.pathname !== page;

/** A held move: the blocker that held it, and the user's two answers. */
export interface PendingMove {
  blocker: Blocker;
  proceed: () => void;
  reset: () => void;
}

export interface GuardedHistory {
  history: History;
  /** Registers a blocker while a screen holds unsaved entries; returns its removal. */
  block: (blocker: Blocker) => () => void;
  /** The held move, if any (for useSyncExternalStore with `subscribe`). */
  pending: () => PendingMove | null;
  subscribe: (listener: () => void) => () => void;
}

/** Wraps `inner` (created with v5Compat, so push and replace notify the listener). */
export function guardHistory(inner: History): GuardedHistory {
  const blockers = new Set<Blocker>();
  const watchers = new Set<() => void>();
  let held: PendingMove | null = null;
  // The location the router shows: a POP's `current` is no longer inner.location.
  let shown = inner.location;
  // An undoing go(-delta) is in flight: its POP is swallowed, then `afterUndo` runs (a replay).
  let undoing = false;
  let afterUndo: (() => void) | undefined;
  // A replayed go(delta) is in flight: its POP passes without asking.
  let replaying = false;

  const setHeld = (next: PendingMove | null) => {
    held = next;
    watchers.forEach((w) => w());
  };
  const holder = (nextLocation: Location): Blocker | undefined =>
    [...blockers].find((blocker) => blocker({ currentLocation: shown, nextLocation }));
  const target = (to: To, state: unknown): Location => ({
    pathname: shown.pathname,
    search: '',
    hash: '',
    ...(typeof to === 'string' ? parsePath(to) : to),
    state: state ?? null,
    key: '',
  });

  // Push or replace, unless a blocker holds it.
  const move = (perform: () => void, to: To, state: unknown) => {
    const blocker = holder(target(to, state));
    if (!blocker) return perform();
    setHeld({
      blocker,
      proceed: () => {
        setHeld(null);
        perform();
      },
      reset: () => setHeld(null),
    });
  };

  // Every change the inner history reports (push and replace too, v5Compat); only a POP may be held.
  const onUpdate = (update: Update, listener: Listener) => {
    if (undoing) {
      undoing = false;
      const next = afterUndo;
      afterUndo = undefined;
      next?.();
      return;
    }
    const { delta } = update;
    const blocker = !replaying && update.action === 'POP' && delta ? holder(update.location) : undefined;
    replaying = false;
    if (blocker && delta) {
      undoing = true;
      inner.go(-delta);
      const replay = () => {
        replaying = true;
        inner.go(delta);
      };
      setHeld({
        blocker,
        proceed: () => {
          setHeld(null);
          // Replay only once the undoing POP has arrived (browsers deliver POPs asynchronously).
          if (undoing) afterUndo = replay;
          else replay();
        },
        reset: () => setHeld(null),
      });
      return;
    }
    shown = update.location;
    listener(update);
  };

  const history: History = {
    get action() {
      return inner.action;
    },
    get location() {
      return inner.location;
    },
    createHref: (to) => inner.createHref(to),
    createURL: (to) => inner.createURL(to),
    encodeLocation: (to) => inner.encodeLocation(to),
    push: (to, state) => move(() => inner.push(to, state), to, state),
    replace: (to, state) => move(() => inner.replace(to, state), to, state),
    go: (delta) => inner.go(delta),
    listen: (listener) => inner.listen((update) => onUpdate(update, listener)),
  };

  return {
    history,
    block(blocker) {
      blockers.add(blocker);
      return () => {
        blockers.delete(blocker);
        if (held?.blocker === blocker) setHeld(null);
      };
    },
    pending: () => held,
    subscribe(watcher) {
      watchers.add(watcher);
      return () => watchers.delete(watcher);
    },
  };
}
