import type { Remark } from '../../../server/domain/resultShape.js';
import { PositiveFinding } from '../queue/PositiveFinding.js';

/**
 * A result's remark as read (DESIGN.md section 10, README "One colour language"): a positive is a
 * warning (PositiveFinding: amber, an icon and the word), a negative neutral (the good outcome is
 * not painted red); a dash when there is none.
 */
export function RemarkBadge({ remark }: { remark: Remark | null }) {
  if (!remark) return <>—</>;
  if (remark === 'positive') return <PositiveFinding text="Positive" className="remark-badge" />;
  return <span className="remark-badge finding-negative">Negative</span>;
}
