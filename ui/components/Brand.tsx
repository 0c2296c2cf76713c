import { LAB_NAME, PORTAL_NAME } from '../labName.js';

/** The laboratory's mark, name and portal name, at the start of the header (and of the boot frame). */
export function Brand() {
  return (
    <div className="brand">
      <span className="brand-mark" aria-hidden="true" />
      <span className="brand-text">
        <span className="brand-title">{LAB_NAME}</span>
        <span className="brand-subtitle">{PORTAL_NAME}</span>
      </span>
    </div>
  );
}
