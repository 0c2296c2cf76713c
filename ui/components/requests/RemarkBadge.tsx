import type { Remark } from '../../../server/domain/resultShape.js';
import { PositiveFinding } from '../queue/PositiveFinding.js';

/**
 * A result's remark as read: a positive is a warning (PositiveFinding, DESIGN.md section 10), a
 * negative a red badge (SPEC section 9); a dash when there is none.
 */
export function RemarkBadge({ remark }: { remark: Remark | null }) {
  if (!remark) return <>—</>;
  if (remark === 'positive') return <PositiveFinding text="Positive" className="remark-badge" />;
  return <span className="remark-badge remark-negative">Negative</span>;
}
