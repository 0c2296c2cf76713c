// Files a command writes (--out): never over an existing file unless --force says so. The check and
// the write are one step (O_EXCL), so a file appearing meanwhile is not overwritten either.
import fs from 'node:fs/promises';
import { AbortError } from './runtime.js';

export const FORCE_HELP = 'overwrite the --out file if it exists (without it an existing file is never replaced)';

/** Writes `data` to `file`; an existing file is refused (exit 1) unless `force`. */
export async function writeOutputFile(file: string, data: string | Uint8Array, { force = false }: { force?: boolean } = {}): Promise<void> {
  try {
    await fs.writeFile(file, data, { flag: force ? 'w' : 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new AbortError(`${file} already exists: pass --force to overwrite it, or choose another file with --out.`);
    }
    throw err;
  }
}
