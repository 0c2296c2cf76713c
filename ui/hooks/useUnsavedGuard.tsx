import { useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { leavingPage } from '../guardedHistory.js';
import { portalHistory } from '../portalHistory.js';

export const LEAVE_QUESTION = 'You have unsaved results. Leave this page and keep them only as a draft on this computer?';

// How many mounted screens hold unsaved entries: the header asks before Log out while there are any.
let unsavedScreens = 0;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const anyUnsaved = () => unsavedScreens > 0;

/** Whether a screen holds unsaved entries now. */
export function useAnyUnsaved(): boolean {
  return useSyncExternalStore(subscribe, anyUnsaved);
}

/**
 * While `unsaved`, asks before the page is left, whatever the way out: a link, a button that
 * navigates (the header's Home), the browser's back and forward (a blocker on the page's history,
 * guardedHistory.ts), Log out (the header, through useAnyUnsaved), reload or closing the tab
 * (beforeunload, where only the browser's own prompt is allowed). Returns the in-page question to
 * render.
 */
export function useUnsavedGuard(unsaved: boolean): ReactNode {
  // Each guard has its own blocker, of the page it was mounted on, so only the screen that held the move asks.
  const [blocker] = useState(() => leavingPage(portalHistory.history.location.pathname));
  const held = useSyncExternalStore(portalHistory.subscribe, portalHistory.pending);

  useEffect(() => {
    if (!unsaved) return;
    const unblock = portalHistory.block(blocker);
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', beforeUnload);
    unsavedScreens += 1;
    listeners.forEach((l) => l());
    return () => {
      unblock();
      window.removeEventListener('beforeunload', beforeUnload);
      unsavedScreens -= 1;
      listeners.forEach((l) => l());
    };
  }, [unsaved, blocker]);

  if (held?.blocker !== blocker) return null;
  return <LeaveDialog onLeave={held.proceed} onStay={held.reset} />;
}

/** The question before unsaved entries are left; Stay has the focus, so a stray Enter keeps them. */
export function LeaveDialog({ onLeave, onStay }: { onLeave: () => void; onStay: () => void }) {
  return <ConfirmDialog question={LEAVE_QUESTION} confirmLabel="Leave" cancelLabel="Stay on this page" onConfirm={onLeave} onCancel={onStay} />;
}

/** Runs `leave` at once, or after the user agreed to leave unsaved entries; render `dialog`. */
export function useConfirmedLeave(leave: () => void): { request: () => void; dialog: ReactNode } {
  const unsaved = useAnyUnsaved();
  const [asking, setAsking] = useState(false);
  return {
    request: () => (unsaved ? setAsking(true) : leave()),
    dialog: asking ? (
      <LeaveDialog
        onLeave={() => {
          setAsking(false);
          leave();
        }}
        onStay={() => setAsking(false)}
      />
    ) : null,
  };
}
