// labctl's main(argv): exit code 0 ok, 1 failed, 2 usage error. Expected failures print one line;
// anything else is a bug and prints its stack. With --json a failure is instead one JSON document on
// stderr, {"error": {"message", "code"}}, so a script reads stdout (the result) and stderr (the
// failure) without parsing prose. No side effect on import: bin.ts runs it for the process, tests run
// it in-process with their own streams (runWithIo).
import { CommanderError } from 'commander';
import { argumentProblem } from './argumentText.js';
import { io, runWithIo, setProcessJson, type CliIo } from './io.js';
import { buildProgram, wantsJson } from './program.js';
import { AbortError, UsageError, info } from './runtime.js';

/** A failure of the system the user can act on (no such directory, port in use, disk full...). */
const isSystemError = (err: unknown): err is NodeJS.ErrnoException =>
  err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string' && typeof (err as NodeJS.ErrnoException).syscall === 'string';

interface Failure {
  message: string;
  /** usage, failed, config, internal, an AppError's code (unavailable, not_found, ...) or an errno code. */
  code: string;
  exitCode: number;
}

/** What went wrong, for the person or the script; null for help and version output. */
async function failureOf(err: unknown): Promise<Failure | null> {
  if (err instanceof CommanderError) {
    // Help and version output also arrive here, with exit code 0; commander has printed the rest.
    return err.exitCode === 0 ? null : { message: err.message.replace(/^error: /, ''), code: 'usage', exitCode: 2 };
  }
  if (err instanceof AbortError) return { message: err.message, code: err instanceof UsageError ? 'usage' : 'failed', exitCode: err.exitCode };
  // Loaded only now: the settings module brings zod, which `labctl --help` does not need.
  const [{ ConfigError }, { AppError }] = await Promise.all([import('../server/config.js'), import('../server/errors.js')]);
  if (err instanceof AppError) return { message: err.message, code: err.code, exitCode: 1 };
  if (err instanceof ConfigError) return { message: err.message, code: 'config', exitCode: 1 };
  if (isSystemError(err)) return { message: err.message, code: err.code!, exitCode: 1 };
  return { message: `Unexpected error: ${(err as Error)?.stack ?? String(err)}`, code: 'internal', exitCode: 1 };
}

async function run(argv: string[]): Promise<number> {
  const json = wantsJson(argv);
  try {
    const problem = argumentProblem(argv.slice(2));
    if (problem) throw new UsageError(problem);
    await (await buildProgram(argv)).parseAsync(argv);
    return 0;
  } catch (err) {
    const failure = await failureOf(err);
    if (!failure) return 0;
    if (json) io().stderr.write(`${JSON.stringify({ error: { message: failure.message, code: failure.code } })}\n`);
    // Commander has already printed its own usage errors (with the help to read).
    else if (!(err instanceof CommanderError)) info(failure.code === 'internal' ? failure.message : `Error: ${failure.message}`);
    return failure.exitCode;
  }
}

/** Runs labctl with `argv` (as process.argv: node, script, args...), on `streams` when given. */
export function main(argv: string[], streams?: CliIo): Promise<number> {
  const json = wantsJson(argv);
  // Tests run several in-process at once, each with its own streams; the real process has its own.
  if (streams) return runWithIo({ ...streams, json }, () => run(argv));
  setProcessJson(json);
  return run(argv);
}
