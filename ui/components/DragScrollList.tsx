import type { ReactNode } from 'react';
import { useDragScroll } from '../hooks/useDragScroll.js';
import type { Loaded } from '../hooks/useLoad.js';

export interface DragScrollListProps {
  /** The screen's own class (its height). */
  className: string;
  /** Pointer movement times this is how far the list scrolls. */
  multiplier?: number;
  /**
   * The list's load, its row count and empty message: 'Loading...', then `empty` when it has no
   * rows, show beneath the table. Left out when the screen says those itself (a paged list's footer).
   */
  load?: { state: Loaded<unknown>; rows: number; empty: string };
  /** The table. */
  children: ReactNode;
}

/**
 * A list that scrolls inside its box by wheel or by mouse drag (the screens' hint: 'Drag the sides
 * of the container to scroll!'), with 'Loading...' or its empty message beneath the table. A failed
 * load shows nothing here: those screens only log it (SPEC section 8).
 */
export function DragScrollList({ className, multiplier, load, children }: DragScrollListProps) {
  const dragRef = useDragScroll<HTMLDivElement>(multiplier);
  return (
    <div ref={dragRef} className={`table-wrap drag-scroll ${className}`}>
      {children}
      {load?.state.status === 'loading' && (
        <p className="empty" role="status">
          Loading...
        </p>
      )}
      {load?.state.status === 'ready' && load.rows === 0 && <p className="empty">{load.empty}</p>}
    </div>
  );
}
