import { useCallback, type RefCallback } from 'react';

/** Where a drag never starts, so typing, clicking and selecting keep working. */
const INTERACTIVE = 'input, textarea, select, button, a, label, summary, [contenteditable=""], [contenteditable="true"]';

/** SPEC section 9: the pointer's movement is doubled when drag-scrolling. */
export const DRAG_SCROLL_MULTIPLIER = 2;

/** Movement (px) after which a press counts as a drag rather than a click. */
const DRAG_THRESHOLD = 4;

/**
 * Lets a mouse drag scroll a container (SPEC section 2: 'Drag the sides of the container to scroll!').
 * The pointer's movement times `multiplier` scrolls it, both ways (vertically the page, when the
 * container is as tall as its content). Touch and pen keep their native
 * scrolling. A drag never starts over inputs, buttons or links, and the click that ends a drag is
 * swallowed so it does not open the row under the pointer.
 *
 *   const dragRef = useDragScroll<HTMLDivElement>();
 *   <div ref={dragRef} className="drag-scroll">...</div>
 *
 * While dragging, the container has the class `is-dragging`.
 */
export function useDragScroll<T extends HTMLElement>(multiplier = DRAG_SCROLL_MULTIPLIER): RefCallback<T> {
  return useCallback(
    (el: T | null) => {
      if (!el) return;
      let start: { x: number; y: number; left: number; top: number; pageTop: number } | null = null;
      let dragged = false;

      const onMove = (e: PointerEvent) => {
        if (!start) return;
        const dx = e.clientX - start.x;
        const dy = e.clientY - start.y;
        if (Math.abs(dx) + Math.abs(dy) > DRAG_THRESHOLD) dragged = true;
        el.scrollLeft = start.left - dx * multiplier;
        // A box without vertical overflow (the track list grows with the page) moves the page instead.
        if (el.scrollHeight > el.clientHeight) el.scrollTop = start.top - dy * multiplier;
        else window.scrollTo({ top: start.pageTop - dy * multiplier, behavior: 'instant' });
      };
      const onUp = () => {
        start = null;
        el.classList.remove('is-dragging');
        window.removeEventListener('pointermove', onMove);
        window.removeEventListener('pointerup', onUp);
      };
      const onDown = (e: PointerEvent) => {
        dragged = false;
        if (e.pointerType !== 'mouse' || e.button !== 0) return;
        if (e.target instanceof Element && e.target.closest(INTERACTIVE)) return;
        start = { x: e.clientX, y: e.clientY, left: el.scrollLeft, top: el.scrollTop, pageTop: window.scrollY };
        el.classList.add('is-dragging');
        window.addEventListener('pointermove', onMove);
        window.addEventListener('pointerup', onUp);
      };
      const onClick = (e: MouseEvent) => {
        if (!dragged) return;
        dragged = false;
        e.preventDefault();
        e.stopPropagation();
      };

      el.addEventListener('pointerdown', onDown);
      el.addEventListener('click', onClick, true);
      return () => {
        onUp();
        el.removeEventListener('pointerdown', onDown);
        el.removeEventListener('click', onClick, true);
      };
    },
    [multiplier],
  );
}
