// Files a command writes (--out): never over an existing file unless --force says so. The check and
// the write are one step (O_EXCL), so a file appearing meanwhile is not overwritten either.
import { createWriteStream, openSync, type WriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { AbortError } from './runtime.js';

export const FORCE_HELP = 'overwrite the --out file if it exists (without it an existing file is never replaced)';

const alreadyThere = (file: string) => new AbortError(`${file} already exists: pass --force to overwrite it, or choose another file with --out.`);

/** A stream to `file` for output written as it comes (a long CSV); an existing file is refused (exit 1) unless `force`. */
export function openOutputStream(file: string, { force = false }: { force?: boolean } = {}): WriteStream {
  try {
    return createWriteStream(file, { fd: openSync(file, force ? 'w' : 'wx') });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw alreadyThere(file);
    throw new AbortError(`Cannot write ${file}: ${code === 'ENOENT' ? 'no such directory' : (err as Error).message}`);
  }
}

/** Writes `data` to `file`; an existing file is refused (exit 1) unless `force`. */
export async function writeOutputFile(file: string, data: string | Uint8Array, { force = false }: { force?: boolean } = {}): Promise<void> {
  try {
    await fs.writeFile(file, data, { flag: force ? 'w' : 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw alreadyThere(file);
    throw err;
  }
}
