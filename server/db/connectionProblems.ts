// What to tell an operator when the database cannot be reached at start-up: one line naming the
// path or host and what to do, instead of a driver stack, a pool that waits a minute, or a hang.
import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { createPrivateDir } from '../privateFiles.js';

const unavailable = (message: string) => new AppError('unavailable', message);

/** The nearest existing ancestor of `target` (or `target` itself). */
function nearestExisting(target: string): string {
  let current = path.resolve(target);
  while (!fs.existsSync(current) && path.dirname(current) !== current) current = path.dirname(current);
  return current;
}

/** Why a data directory (DATA_DIR, or the SQLite file's) or a file in it could not be created or used, and what to do. */
export function dataDirProblem(err: NodeJS.ErrnoException, dir: string): Error {
  const target = err.path ?? dir;
  const blocker = nearestExisting(dir);
  switch (err.code) {
    case 'EACCES':
    case 'EPERM':
      if (fs.existsSync(dir) && target === dir) {
        return unavailable(`Cannot write in ${dir}: permission denied. Give the data directory to the user running labctl (sudo chown "$(id -un)" ${dir}; chmod 700 ${dir}) or set DATA_DIR to one it can write.`);
      }
      return unavailable(`Cannot create ${target}: permission denied in ${blocker}. Create the data directory for the user running labctl (sudo install -d -m 700 -o "$(id -un)" ${dir}) or set DATA_DIR to one it can write.`);
    case 'ENOENT':
      // Only the last level is ever created: a missing parent is most likely a mistyped path.
      if (blocker !== path.dirname(dir)) {
        return unavailable(`Cannot create ${dir}: ${path.dirname(dir)} does not exist. Fix DATA_DIR, or create the data directory first (sudo install -d -m 700 -o "$(id -un)" ${dir}).`);
      }
      return unavailable(`Cannot create ${dir}: ${blocker} does not allow new directories. Set DATA_DIR to a directory on a writable file system.`);
    case 'ENOTDIR':
    case 'EEXIST':
      if (!fs.statSync(blocker).isDirectory()) {
        return unavailable(`Cannot use ${dir} as the data directory: ${blocker} is a file, not a directory. Set DATA_DIR to a directory (or move the file away).`);
      }
      break;
    case 'EROFS':
      return unavailable(`Cannot ${fs.existsSync(dir) ? 'write in' : 'create'} ${target}: the file system is read-only. Set DATA_DIR to a writable directory.`);
    case 'ENOSPC':
      return unavailable(`Cannot create ${target}: the disk is full. Free some space or set DATA_DIR elsewhere.`);
  }
  return unavailable(`Cannot create ${target} (${err.code ?? err.message}). Check DATA_DIR (${dir}).`);
}

/**
 * What `labctl serve` needs of DATA_DIR whatever the database (mail written as files, backups, the
 * SQLite file): a directory it can write. Creates it owner-only when only the last level is missing;
 * a missing parent, a file in the way or a directory it may not write is one line saying what to do.
 */
export function prepareDataDir(dir: string): void {
  try {
    createPrivateDir(dir);
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK);
  } catch (err) {
    throw dataDirProblem(err as NodeJS.ErrnoException, dir);
  }
}

/** host:port/database of a PostgreSQL URL, without the user's password. */
function where(connectionString: string): { place: string; user: string; database: string } {
  const url = new URL(connectionString);
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres';
  return { place: `${url.hostname || 'localhost'}:${url.port || '5432'}`, user: decodeURIComponent(url.username) || 'postgres', database };
}

/** One line about a failed PostgreSQL connection, by the driver's error code. */
export function postgresProblem(err: { code?: string; message?: string }, connectionString: string): Error {
  const { place, user, database } = where(connectionString);
  const said = err.message ?? String(err);
  switch (err.code) {
    case 'ECONNREFUSED':
      return unavailable(`PostgreSQL at ${place} refused the connection: start PostgreSQL there, or fix the host and port in DATABASE_URL.`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return unavailable(`Cannot find the PostgreSQL host of DATABASE_URL (${place}): fix the host name.`);
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return unavailable(`PostgreSQL at ${place} cannot be reached (${err.code}): check the host in DATABASE_URL and the network or firewall between.`);
    case '28P01':
      return unavailable(`PostgreSQL at ${place} refused the password of user "${user}": fix the password in DATABASE_URL.`);
    case '28000':
      return unavailable(`PostgreSQL at ${place} refused user "${user}" (${said}): create the role or fix the user in DATABASE_URL.`);
    case '3D000':
      return unavailable(`PostgreSQL at ${place} has no database "${database}": create it (createdb -h ${place.split(':')[0]} ${database}) or fix the name in DATABASE_URL.`);
    case '57P03':
      return unavailable(`PostgreSQL at ${place} is starting up or shutting down: try again in a moment.`);
  }
  if (/timeout/i.test(said)) return unavailable(`PostgreSQL at ${place} did not answer: check the host and port in DATABASE_URL, and that nothing blocks the connection.`);
  return unavailable(`Cannot connect to PostgreSQL at ${place}: ${said}. Check DATABASE_URL.`);
}

type RawClient = { acquireRawConnection(): Promise<unknown>; destroyRawConnection(conn: unknown): Promise<void> };

/**
 * Connects once, outside the pool, and throws the one-line problem when that fails. The pool would
 * instead retry a refused connection until its acquire timeout, and log each attempt.
 */
export async function checkConnection(db: Knex, settings: Config['database']): Promise<void> {
  const client = db.client as unknown as RawClient;
  let conn: unknown;
  try {
    conn = await client.acquireRawConnection();
  } catch (err) {
    if (settings.client === 'pg') throw postgresProblem(err as { code?: string }, settings.connectionString);
    const e = err as NodeJS.ErrnoException;
    throw unavailable(`Cannot open the SQLite database ${settings.filename}: ${e.message}. Check DATA_DIR or DATABASE_URL and the file's permissions.`);
  }
  await client.destroyRawConnection(conn);
}
