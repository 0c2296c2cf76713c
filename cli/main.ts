// labctl's main(argv): exit code 0 ok, 1 failed, 2 usage error. Expected failures print one line;
// anything else is a bug and prints its stack. No side effect on import: bin.ts runs it for the
// process, tests run it in-process with their own streams (runWithIo).
import { CommanderError } from 'commander';
import { runWithIo, type CliIo } from './io.js';
import { buildProgram } from './program.js';
import { AbortError, info } from './runtime.js';

/** A failure of the system the user can act on (no such directory, port in use, disk full...). */
const isSystemError = (err: unknown): err is NodeJS.ErrnoException =>
  err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string' && typeof (err as NodeJS.ErrnoException).syscall === 'string';

async function run(argv: string[]): Promise<number> {
  try {
    await (await buildProgram(argv)).parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version output also arrive here, with exit code 0.
      return err.exitCode === 0 ? 0 : 2;
    }
    if (err instanceof AbortError) {
      info(`Error: ${err.message}`);
      return err.exitCode;
    }
    // Loaded only now: the settings module brings zod, which `labctl --help` does not need.
    const [{ ConfigError }, { AppError }] = await Promise.all([import('../server/config.js'), import('../server/errors.js')]);
    if (err instanceof AppError || err instanceof ConfigError || isSystemError(err)) {
      info(`Error: ${err.message}`);
      return 1;
    }
    info(`Unexpected error: ${(err as Error)?.stack ?? String(err)}`);
    return 1;
  }
}

/** Runs labctl with `argv` (as process.argv: node, script, args...), on `streams` when given. */
export function main(argv: string[], streams?: CliIo): Promise<number> {
  return streams ? runWithIo(streams, () => run(argv)) : run(argv);
}
