import '../../styles/findings.css';

/** A positive finding where results are read: a warning (amber, an icon and the word), never a green "good" badge. */
export function PositiveFinding({ text = 'Positive finding', className }: { text?: string; className?: string }) {
  return <strong className={`finding-positive${className ? ` ${className}` : ''}`}>{text}</strong>;
}
