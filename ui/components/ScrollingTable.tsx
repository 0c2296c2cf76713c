import type { ReactNode } from 'react';

/**
 * The box of a table that may scroll sideways (on a phone it often does): it takes the keyboard
 * focus, so arrow keys scroll it too (WCAG 2.1.1; axe's scrollable-region-focusable), and carries
 * the name a screen reader announces when focus lands on it.
 */
export function ScrollingTable({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div className={className ? `table-wrap ${className}` : 'table-wrap'} role="group" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
