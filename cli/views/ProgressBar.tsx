// Progress of a long job (imports, volume seeding) on the terminal's stderr.
import { Text } from 'ink';
import { formatCount } from '../table.js';

export interface ProgressBarProps {
  label: string;
  done: number;
  total: number;
  /** What is counted, e.g. "rows". */
  unit: string;
  width?: number;
}

export function ProgressBar({ label, done, total, unit, width = 30 }: ProgressBarProps) {
  const share = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(share * width);
  return (
    <Text>
      {label} <Text color="green">{'█'.repeat(filled)}</Text>
      <Text dimColor>{'░'.repeat(width - filled)}</Text> {String(Math.floor(share * 100)).padStart(3)}% {formatCount(done)} / {formatCount(total)} {unit}
    </Text>
  );
}
