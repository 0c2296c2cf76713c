import type { Outcome } from '../../../server/domain/specifications.js';
import { DecisionBadge } from './DecisionBadge.js';

/** A request's (or sample's) statement of conformity in one line; nothing when no result was judged. */
export function ConformityLine({ outcome, what = 'Statement of conformity' }: { outcome: Outcome | null; what?: string }) {
  if (!outcome) return null;
  return (
    <p className="conformity-line">
      <span>{what}:</span> <DecisionBadge outcome={outcome} className="conformity-badge" />
    </p>
  );
}
