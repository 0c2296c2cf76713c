// labctl's arguments are text like any API input (server/domain/wellFormedText.ts): a control
// character or a byte that is not UTF-8 (which Node reads as U+FFFD) in an argument is refused with
// a usage error naming the option, before any command runs or any database is opened.
import { textProblem } from '../server/domain/wellFormedText.js';

/** What a refusal calls `args[i]`: its option (`--email`, also for `--email=...`) or its position. */
function nameOf(args: readonly string[], i: number): { name: string; text: string } {
  const arg = args[i];
  const equals = arg.indexOf('=');
  if (arg.startsWith('--') && equals > 0) return { name: `The value of ${arg.slice(0, equals)}`, text: arg.slice(equals + 1) };
  const previous = args[i - 1];
  if (previous?.startsWith('-') && !previous.includes('=') && !arg.startsWith('-')) return { name: `The value of ${previous}`, text: arg };
  return { name: `Argument ${i + 1} (after labctl)`, text: arg };
}

/** The refusal of the first argument (argv without node and the script) that is not well-formed text, or undefined. */
export function argumentProblem(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i += 1) {
    const { name, text } = nameOf(args, i);
    const problem = textProblem(name, text);
    if (problem) return problem;
  }
  return undefined;
}
