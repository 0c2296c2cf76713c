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
// connections). On PostgreSQL, see postgresCounter.ts: an instance of `labctl serve` answers from its
// lease, and its writes end with a barrier that every other instance acknowledges.
import Database from 'better-sqlite3';
import type { Config } from '../config.js';
import { DAY_OF_READ, versionsOf, type Versions } from './changeVersions.js';
import { openPostgresCounter } from './postgresCounter.js';

export interface ChangeCounter {
  /**
   * The versions as of a read that began after this call: any commit before the call shows (on a
   * leased PostgreSQL counter, any commit whose writer's afterWrite() resolved before the call).
   */
  read(): Promise<Versions>;
  /** Resolves once every instance's next read shows the commits this process made before the call. */
  afterWrite(): Promise<void>;
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
    // Every read on SQLite begins after the call: nothing to wait for.
    afterWrite: async () => undefined,
    close,
  };
}

// With the database's day (days since 1970-01-01, UTC) under DAY_OF_READ, read in the same
// statement: the day the ':earlier' versions are reckoned from (changeVersions.ts).
const VERSIONS_SQL = `SELECT name, sum(n) AS n FROM lab_versions GROUP BY name UNION ALL SELECT '${DAY_OF_READ}', CAST(julianday('now') - 2440587.5 AS INTEGER)`;

export interface ChangeCounterOptions {
  /** An instance of `labctl serve` on PostgreSQL: reads answered from its lease (postgresCounter.ts). */
  leased?: boolean;
}

// What moves on every commit of another connection (this one only reads), and the day: while both
// are as at the last read, the versions are too, and the GROUP BY over lab_versions is not run again.
const CHANGED_SQL = `SELECT data_version AS version, CAST(julianday('now') - 2440587.5 AS INTEGER) AS day FROM pragma_data_version`;

export async function openChangeCounter(database: Config['database'], { leased = false }: ChangeCounterOptions = {}): Promise<ChangeCounter> {
  if (database.client !== 'sqlite3') return openPostgresCounter({ ...database, leased });
  const conn = new Database(database.filename, { readonly: true, fileMustExist: true });
  const changed = conn.prepare<[], { version: number; day: number }>(CHANGED_SQL);
  const statement = conn.prepare<[], { name: string; n: number }>(VERSIONS_SQL);
  let last: { version: number; day: number; versions: Versions } | undefined;
  return sharedReads(
    () => {
      const { version, day } = changed.get()!;
      if (last?.version !== version || last.day !== day) last = { version, day, versions: versionsOf(statement.all()) };
      return last.versions;
    },
    async () => {
      conn.close();
    },
  );
}
