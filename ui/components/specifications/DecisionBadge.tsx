import { OUTCOME_TEXT, type Outcome } from '../../../server/domain/specifications.js';
import { PositiveFinding } from '../queue/PositiveFinding.js';
import '../../styles/findings.css';

/**
 * A statement of conformity as read (README "One colour language"): "conforms" neutral like a
 * negative, "does not conform" a warning (amber, ⚠ and the words) like a positive finding, and
 * "inconclusive" a warning of its own (amber outline, ? and the word); never colour alone.
 */
export function DecisionBadge({ outcome, className = 'remark-badge' }: { outcome: Outcome | null; className?: string }) {
  if (!outcome) return <>—</>;
  if (outcome === 'does_not_conform') return <PositiveFinding text={OUTCOME_TEXT[outcome]} className={className} />;
  if (outcome === 'inconclusive') return <strong className={`${className} finding-inconclusive`}>{OUTCOME_TEXT[outcome]}</strong>;
  return <span className={`${className} finding-negative`}>{OUTCOME_TEXT[outcome]}</span>;
}
