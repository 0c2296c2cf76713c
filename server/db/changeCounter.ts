// The change versions (changeVersions.ts) as of now, for the read cache, read on a connection of
// its own: on SQLite a read-only one, which sees every other connection's commits (the server's
// pool, labctl, a restore); on PostgreSQL one outside the pool, which sees every instance's commits.
// Every cached answer waits for this read, so it must never queue behind the pool: under a day's
// writes all ten pool connections can be in transactions, and reads through the pool then waited
// for them (a server sat half idle while its callers waited).
//
// Callers share reads, each answered by a read begun after its call. On SQLite (a synchronous read) a
// read waits for the check phase of the event loop (setImmediate) and answers everyone who asked
// before it: under load one read serves every call the poll phase delivered (about forty at fifty
// connections). On PostgreSQL's one connection, the calls that come while a read is under way share
// the next one (coalesce.ts).
import Database from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../config.js';
import { DAY_OF_READ, versionsOf, type Versions } from './changeVersions.js';
import { coalesced } from './coalesce.js';
import { CONNECT_TIMEOUT_MS } from './knex.js';

export interface ChangeCounter {
  /** The versions as of a read that began after this call: any commit before the call shows. */
  read(): Promise<Versions>;
  close(): Promise<void>;
}

/** Shares one `readNow` among the calls that arrive before it begins. */
export function sharedReads(readNow: () => Versions | Promise<Versions>, close: () => Promise<void>): ChangeCounter {
  let next: Promise<Versions> | undefined;
  const begin = (resolve: (versions: Versions) => void, reject: (err: unknown) => void) => {
    // Calls from here on wait for the next read: this one may have begun before they arrived.
    next = undefined;
    try {
      Promise.resolve(readNow()).then(resolve, reject);
    } catch (err) {
      reject(err);
    }
  };
  return {
    read: () => (next ??= new Promise((resolve, reject) => setImmediate(begin, resolve, reject))),
    close,
  };
}

/** How the counter's connection shows in pg_stat_activity (with its schema, when one is named). */
export const counterApplicationName = (searchPath?: string) => (searchPath ? `lab change versions ${searchPath}` : 'lab change versions').slice(0, 63);

// With the database's day (days since 1970-01-01, UTC) under DAY_OF_READ, read in the same
// statement: the day the ':earlier' versions are reckoned from (changeVersions.ts).
const VERSIONS_SQL = {
  sqlite: `SELECT name, sum(n) AS n FROM lab_versions GROUP BY name UNION ALL SELECT '${DAY_OF_READ}', CAST(julianday('now') - 2440587.5 AS INTEGER)`,
  pg: `SELECT name, sum(n) AS n FROM lab_versions GROUP BY name UNION ALL SELECT '${DAY_OF_READ}', (now() AT TIME ZONE 'UTC')::date - DATE '1970-01-01'`,
};

export async function openChangeCounter(database: Config['database']): Promise<ChangeCounter> {
  if (database.client !== 'sqlite3') return postgresCounter(database);
  const conn = new Database(database.filename, { readonly: true, fileMustExist: true });
  const statement = conn.prepare<[], { name: string; n: number }>(VERSIONS_SQL.sqlite);
  return sharedReads(
    () => versionsOf(statement.all()),
    async () => {
      conn.close();
    },
  );
}

/**
 * One PostgreSQL connection, opened at the first read, the statement prepared on it once. A read on
 * a connection that failed (the server restarted, the network dropped) fails, and the next opens a
 * new connection.
 */
async function postgresCounter({ connectionString, searchPath }: { connectionString: string; searchPath?: string }): Promise<ChangeCounter> {
  let current: Promise<pg.Client> | undefined;
  const open = () => {
    const client = new pg.Client({
      connectionString,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      application_name: counterApplicationName(searchPath),
      // As the pool's connections (knex's searchPath); otherwise the URL's own options apply.
      ...(searchPath && { options: `-c search_path=${searchPath}` }),
    });
    const opened = client.connect().then(() => client);
    // An error between reads (the connection dropped) is reported by the next read.
    client.on('error', () => forget(opened));
    return opened;
  };
  const end = (connection: Promise<pg.Client>) => connection.then((client) => client.end()).catch(() => undefined);
  const forget = (connection: Promise<pg.Client>) => {
    if (current !== connection) return;
    current = undefined;
    void end(connection);
  };
  const readNow = async () => {
    const connection = (current ??= open());
    try {
      const { rows } = await (await connection).query<{ name: string; n: string }>({ name: 'lab_versions', text: VERSIONS_SQL.pg });
      return versionsOf(rows);
    } catch (err) {
      forget(connection);
      throw err;
    }
  };
  // Connects now, so a database that is unreachable fails the start, as the pool's first query does.
  await readNow();
  // One connection runs one query at a time: the calls that come while a read is under way share the
  // next one, instead of queueing a read each behind it.
  return {
    read: coalesced(readNow, { afterTurn: true }),
    close: async () => {
      const connection = current;
      current = undefined;
      if (connection) await end(connection);
    },
  };
}
