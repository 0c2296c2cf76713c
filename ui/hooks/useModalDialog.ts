import { useEffect, useRef } from 'react';

/**
 * Opens a native <dialog> as modal when it mounts (the browser moves focus in, keeps it inside and
 * closes it on Escape) and, when it goes away, gives focus back to the control that opened it, so a
 * keyboard user carries on where they were.
 *
 * Give the dialog's onCancel the same handler as its onClose. Escape fires `cancel` at once but
 * `close` in a later task, and Chromium handles input first: an Enter on the opener right after
 * Escape found the page still showing the dialog and did nothing.
 */
export function useModalDialog() {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return ref;
}
