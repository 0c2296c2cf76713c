import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { LAB_NAME } from '../labName.js';

export interface PageProps {
  /** The screen's <h1>. */
  title: ReactNode;
  /** Browser tab title when `title` is not plain text. */
  documentTitle?: string;
  /** One line under the heading. */
  note?: ReactNode;
  /** 'narrow' for forms (login, codes), 'wide' for tables; default a medium column. */
  width?: 'narrow' | 'medium' | 'wide';
  children?: ReactNode;
}

/**
 * After an in-app navigation, moves focus to the page's heading, so a screen reader announces the new
 * screen and the keyboard starts from its top, unless a field of the page took the focus itself
 * (a code screen's code field). The first screen of a visit keeps the browser's own start.
 */
function useHeadingFocus() {
  const heading = useRef<HTMLHeadingElement>(null);
  const section = useRef<HTMLElement>(null);
  const { key } = useLocation();
  useEffect(() => {
    if (key === 'default') return;
    if (section.current?.contains(document.activeElement)) return;
    heading.current?.focus({ preventScroll: true });
  }, [key]);
  return { heading, section };
}

/** The card every screen sits in: heading, optional note, content. Sets the tab title. */
export function Page({ title, documentTitle, note, width = 'medium', children }: PageProps) {
  const tabTitle = documentTitle ?? (typeof title === 'string' ? title : undefined);
  useEffect(() => {
    document.title = tabTitle ? `${tabTitle} | ${LAB_NAME}` : LAB_NAME;
  }, [tabTitle]);
  const { heading, section } = useHeadingFocus();

  return (
    <section ref={section} className={`page page-${width}`}>
      <h1 ref={heading} className="page-title" tabIndex={-1}>
        {title}
      </h1>
      {note !== undefined && <p className="page-note">{note}</p>}
      {children}
    </section>
  );
}
