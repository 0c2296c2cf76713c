// The data directory holds the database, backups and the mail outbox (live codes): only
// the account that runs the lab may read them.
import fs from 'node:fs';
import path from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` owner-only unless it is a directory already; its parent must exist. */
export function createPrivateDir(dir: string): void {
  try {
    fs.mkdirSync(dir, { mode: PRIVATE_DIR_MODE });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST' && fs.statSync(dir).isDirectory()) return;
    throw err;
  }
}

/**
 * Creates `dir` and its missing parents, owner-only; an existing directory is left as it is. One
 * level at a time from the nearest existing one, not mkdirSync's `recursive`, which never returns
 * where the file system refuses a directory with ENOENT under a parent that exists (/proc).
 */
export function ensurePrivateDir(dir: string): void {
  const missing: string[] = [];
  for (let current = path.resolve(dir); !fs.existsSync(current); current = path.dirname(current)) {
    missing.unshift(current);
    if (path.dirname(current) === current) break;
  }
  if (!missing.length) {
    createPrivateDir(dir); // there already: a directory is fine, a file is refused
    return;
  }
  for (const level of missing) createPrivateDir(level);
}

/** Creates `file` empty with owner-only access unless it exists, so a later writer keeps those permissions. */
export function ensurePrivateFile(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, 'wx', PRIVATE_FILE_MODE));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}
