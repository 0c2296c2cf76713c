// Entry point of labctl: exit code 0 ok, 1 failed, 2 usage error. Expected failures print their
// message; anything else is a bug and prints its stack.
import { CommanderError } from 'commander';
import { ConfigError } from '../server/config.js';
import { AppError } from '../server/errors.js';
import { buildProgram } from './program.js';
import { AbortError, info } from './runtime.js';

export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
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
    if (err instanceof AppError || err instanceof ConfigError) {
      info(`Error: ${err.message}`);
      return 1;
    }
    info(`Unexpected error: ${(err as Error)?.stack ?? String(err)}`);
    return 1;
  }
}

const code = await main(process.argv);
if (code !== 0) process.exitCode = code;
