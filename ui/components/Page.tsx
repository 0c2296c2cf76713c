import { useEffect, type ReactNode } from 'react';
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

/** The card every screen sits in: heading, optional note, content. Sets the tab title. */
export function Page({ title, documentTitle, note, width = 'medium', children }: PageProps) {
  const tabTitle = documentTitle ?? (typeof title === 'string' ? title : undefined);
  useEffect(() => {
    document.title = tabTitle ? `${tabTitle} | ${LAB_NAME}` : LAB_NAME;
  }, [tabTitle]);

  return (
    <section className={`page page-${width}`}>
      <h1 className="page-title">{title}</h1>
      {note !== undefined && <p className="page-note">{note}</p>}
      {children}
    </section>
  );
}
