import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';

export type NoticeTone = 'success' | 'error';

export interface NotifyOptions {
  /** Keep the message through the next navigation (an outcome followed by a move, e.g. to the home page). */
  carry?: boolean;
}

interface Notice {
  text: string;
  tone: NoticeTone;
  carry: boolean;
}

type Notify = (text: string, tone: NoticeTone, options?: NotifyOptions) => void;

const NoticeContext = createContext<{ notice: Notice | null; notify: Notify; dismiss: () => void } | null>(null);

/**
 * The portal's outcome messages, in the page instead of window.alert (DESIGN.md section 10): one
 * message at a time, shown at the top of the main area until dismissed or the user moves on.
 */
export function NoticeProvider({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const [notice, setNotice] = useState<Notice | null>(null);
  // Moving to another screen ends a message, unless it was meant to be carried there.
  const [shownOn, setShownOn] = useState(pathname);
  if (shownOn !== pathname) {
    setShownOn(pathname);
    setNotice((n) => (n?.carry ? { ...n, carry: false } : null));
  }

  const notify = useCallback<Notify>((text, tone, options) => {
    setNotice({ text, tone, carry: options?.carry ?? false });
  }, []);
  const dismiss = useCallback(() => setNotice(null), []);
  const value = useMemo(() => ({ notice, notify, dismiss }), [notice, notify, dismiss]);
  return <NoticeContext.Provider value={value}>{children}</NoticeContext.Provider>;
}

export function useNotify(): Notify {
  const value = useContext(NoticeContext);
  if (!value) throw new Error('useNotify must be used inside <NoticeProvider>');
  return value.notify;
}

/**
 * Where the messages show: a success as a status (announced politely), a failure as an alert
 * (announced at once). The region appears with its message, so screens without one carry no empty
 * live regions.
 */
export function NoticeArea() {
  const value = useContext(NoticeContext);
  const notice = value?.notice;
  if (!notice) return null;
  return (
    <div className="page-notices">
      <div className={`page-notice notice-${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
        <p className="page-notice-text">{notice.text}</p>
        <button type="button" className="button button-ghost page-notice-close" onClick={value.dismiss}>
          <span aria-hidden="true">×</span>
          <span className="visually-hidden">Dismiss message</span>
        </button>
      </div>
    </div>
  );
}
