import type { Remark } from '../../../server/domain/resultShape.js';

/** A result's remark as a badge in the SPEC section 9 colours (ui/styles.css); a dash when there is none. */
export function RemarkBadge({ remark }: { remark: Remark | null }) {
  if (!remark) return <>—</>;
  return <span className={`remark-badge remark-${remark}`}>{remark === 'positive' ? 'Positive' : 'Negative'}</span>;
}
