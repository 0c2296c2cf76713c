// A yes/no question on the terminal; anything but "y" answers no, so Enter keeps the safe default.
import { useEffect, useState } from 'react';
import { Text, useInput } from 'ink';

export interface ConfirmProps {
  message: string;
  onAnswer(yes: boolean): void;
}

export function Confirm({ message, onAnswer }: ConfirmProps) {
  const [answer, setAnswer] = useState<boolean | null>(null);
  useInput(
    (input, key) => {
      const lower = input.toLowerCase();
      if (lower === 'y' || lower === 'n' || key.return || key.escape) setAnswer(lower === 'y');
    },
    { isActive: answer === null },
  );
  // Reported once the answer is on screen, so the last frame shows it.
  useEffect(() => {
    if (answer !== null) onAnswer(answer);
  }, [answer, onAnswer]);
  return (
    <Text>
      <Text color="yellow">? </Text>
      {message} <Text dimColor>(y/N)</Text> {answer === null ? '' : answer ? 'yes' : 'no'}
    </Text>
  );
}
