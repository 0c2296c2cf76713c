// The change versions on PostgreSQL (changeCounter.ts), read on one connection outside the pool, in
// one of two ways:
// - fresh (labctl, and tests that write behind the API's back): each read is answered by a read of
//   lab_versions begun after it, shared by the calls of one turn (coalesce.ts). Any commit before the
//   call shows, whoever made it, at a round trip per turn.
// - leased (`labctl serve`): reads are answered from the versions this instance last read, with no
//   round trip, while its lease holds: its last read that no barrier overtook was sent less than
//   LEASE_MS ago. It reads again every HEARTBEAT_MS. Every write an instance acknowledges, and every
//   labctl command that wrote, ends with afterWrite(): a barrier, a NOTIFY on the schema's channel
//   committed after the write, sent in one statement with a read of the versions and of the instances
//   listening; the NOTIFY carries those versions. Each instance that receives it takes them (each
//   kind at the higher of its number and theirs), answers from them, and then acknowledges, by a
//   NOTIFY back. The writer answers its caller once every instance listed acknowledged, or once
//   LEASE_MS passed, by when an instance that never received the barrier has lost its lease:
//   PostgreSQL delivers a notification before the answer to any later statement on the listening
//   connection, so a read sent after the barrier committed comes back after it, overtaken. Why this
//   design: README.md, Architecture.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { ChangeCounter } from './changeCounter.js';
import { DAY_OF_READ, versionsOf, type Versions } from './changeVersions.js';
import { coalesced } from './coalesce.js';
import { CONNECT_TIMEOUT_MS } from './knex.js';

/** How long an instance answers from the versions of its last read. */
export const LEASE_MS = 3_000;
/** How often an instance reads the versions when nothing else makes it. */
export const HEARTBEAT_MS = 1_000;

export interface PostgresCounterOptions {
  connectionString: string;
  searchPath?: string;
  /** An instance of `labctl serve`: reads from its lease, acknowledges barriers. */
  leased: boolean;
}

const VERSIONS = `SELECT name, sum(n) AS n FROM lab_versions GROUP BY name UNION ALL SELECT '${DAY_OF_READ}', (now() AT TIME ZONE 'UTC')::date - DATE '1970-01-01'`;
// The barrier: the versions, a NOTIFY ($1 channel, $2 message) that carries them as JSON after the
// message and commits after the read, and one row per instance of the schema listening ($3:
// application_name LIKE); the rows other than the versions' are named so.
const NOTIFIED = 'notified';
const INSTANCE = 'instance ';
const BARRIER = `WITH v AS (${VERSIONS}), sent AS (SELECT pg_notify($1, $2 || ' ' || (SELECT json_object_agg(name, n) FROM v)::text))
  SELECT name, n FROM v
  UNION ALL SELECT '${NOTIFIED}', 0 FROM sent
  UNION ALL SELECT '${INSTANCE}' || split_part(application_name, ' ', 3), 0 FROM pg_stat_activity WHERE application_name LIKE $3 AND pid <> pg_backend_pid()`;

/** Every kind at the higher of its two numbers: each only grows, and a read may come back after a newer barrier. */
function newest(known: Versions | undefined, read: Versions): Versions {
  if (!known) return read;
  const merged: Record<string, number> = { ...known };
  for (const [name, n] of Object.entries(read)) merged[name] = Math.max(merged[name] ?? 0, n);
  return merged;
}

/** How an instance's connection shows in pg_stat_activity: by this name other processes find it. */
const instanceName = (id: string, scope: string) => `lab instance ${id} ${scope}`;
/** How the connection of a fresh counter shows (with its schema, when one is named). */
export const counterApplicationName = (searchPath?: string) => (searchPath ? `lab change versions ${searchPath}` : 'lab change versions').slice(0, 63);

interface Link {
  client: pg.Client;
  /** The NOTIFY channel of this database and schema. */
  channel: string;
  /** Short hash of database and schema, in the instances' application_name. */
  scope: string;
}

interface Waiter {
  acked: Set<string>;
  done?: () => void;
  waiting?: Set<string>;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export async function openPostgresCounter({ connectionString, searchPath, leased }: PostgresCounterOptions): Promise<ChangeCounter> {
  const id = randomBytes(4).toString('hex');
  let current: Promise<Link> | undefined;
  let versions: Versions | undefined;
  let answer: Promise<Versions> | undefined;
  let leaseFrom = -Infinity;
  // Barriers received from other processes, and those not yet acknowledged.
  let barriersSeen = 0;
  const unacknowledged: string[] = [];
  let barriersSent = 0;
  const waiters = new Map<string, Waiter>();

  const take = (read: Versions) => {
    versions = newest(versions, read);
    answer = Promise.resolve(versions);
  };
  let acknowledging: NodeJS.Immediate | undefined;
  const onNotification = (link: Link, message: pg.Notification) => {
    if (message.channel !== link.channel || !message.payload) return;
    // 'b <from> <tag> <versions as JSON>', or 'a <from> <tag> <tag>...'
    const [kind, from, ...tags] = message.payload.split(' ');
    if (from === id) return;
    if (kind === 'b' && leased) {
      // The versions read after the write committed: answered from at once, then acknowledged.
      take(versionsOf(Object.entries(JSON.parse(message.payload.slice(message.payload.indexOf('{')))).map(([name, n]) => ({ name, n: n as number }))));
      barriersSeen += 1;
      unacknowledged.push(tags[0]);
      acknowledging ??= setImmediate(() => {
        acknowledging = undefined;
        void acknowledge(unacknowledged.splice(0));
      });
    }
    if (kind === 'a') {
      for (const tag of tags) {
        const waiter = waiters.get(tag);
        if (!waiter) continue;
        waiter.acked.add(from);
        waiter.waiting?.delete(from);
        if (waiter.waiting?.size === 0) waiter.done?.();
      }
    }
  };

  const open = () => {
    const client = new pg.Client({
      connectionString,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      application_name: counterApplicationName(searchPath),
      // As the pool's connections (knex's searchPath); otherwise the URL's own options apply.
      ...(searchPath && { options: `-c search_path=${searchPath}` }),
    });
    const opened = (async () => {
      await client.connect();
      const { rows } = await client.query<{ scope: string }>("SELECT left(md5(current_database() || '.' || current_schema()), 12) AS scope");
      const scope = rows[0].scope;
      const link: Link = { client, channel: `lab_${scope}`, scope };
      client.on('notification', (message) => onNotification(link, message));
      // Barriers and acknowledgements carry no data: their commits need not wait for the disk.
      await client.query('SET synchronous_commit = off');
      await client.query(`LISTEN ${link.channel}`);
      // Named only once it listens: a writer that finds it waits for its acknowledgement.
      if (leased) await client.query('SELECT set_config($1, $2, false)', ['application_name', instanceName(id, scope)]);
      return link;
    })();
    // An error between reads (the connection dropped) is reported by the next read.
    client.on('error', () => forget(opened));
    opened.catch(() => forget(opened));
    return opened;
  };
  const end = (connection: Promise<Link>) => connection.then((link) => link.client.end()).catch(() => undefined);
  const forget = (connection: Promise<Link>) => {
    if (current !== connection) return;
    current = undefined;
    // What this connection may have missed: no read is answered from the lease until a new one.
    leaseFrom = -Infinity;
    void end(connection);
  };
  let closed = false;
  // Never a new connection once closed: a read queued behind the last one would keep the process alive.
  const connection = () => (closed ? Promise.reject(new Error('The change counter is closed.')) : (current ??= open()));

  /** Runs `query` on the connection and takes its rows' versions; its lease runs from it unless a barrier overtook it. */
  const versionsQuery = async (query: (link: Link) => Promise<pg.QueryResult<{ name: string; n: string }>>) => {
    const link = connection();
    const seen = barriersSeen;
    const sentAt = performance.now();
    try {
      const { rows } = await query(await link);
      take(versionsOf(rows.filter((row) => row.name !== NOTIFIED && !row.name.startsWith(INSTANCE))));
      // A read that a barrier overtook may have been sent after the barrier committed: the lease runs
      // on from the read before it.
      if (leased && seen === barriersSeen) leaseFrom = sentAt;
      return rows;
    } catch (err) {
      forget(link);
      throw err;
    }
  };

  const readNow = async () => {
    await versionsQuery(({ client }) => client.query({ name: 'lab_versions', text: VERSIONS }));
    return versions!;
  };
  const acknowledge = async (tags: string[]) => {
    const link = connection();
    try {
      const { client, channel } = await link;
      await client.query({ name: 'lab_ack', text: 'SELECT pg_notify($1, $2)', values: [channel, `a ${id} ${tags.join(' ')}`] });
    } catch {
      // The connection is gone: its writers answer once this instance's lease is over.
      forget(link);
    }
  };
  // One connection runs one query at a time: the calls that come while a read is under way share the
  // next one, instead of queueing a read each behind it.
  const sharedRead = coalesced(readNow, { afterTurn: true });

  const barrier = async () => {
    barriersSent += 1;
    const tag = `${id}.${barriersSent}`;
    // Registered before the NOTIFY: an acknowledgement can be handled before the statement's answer.
    const waiter: Waiter = { acked: new Set() };
    waiters.set(tag, waiter);
    try {
      const rows = await versionsQuery(({ client, channel, scope }) =>
        client.query({ name: 'lab_barrier', text: BARRIER, values: [channel, `b ${id} ${tag}`, instanceName('%', scope)] }),
      );
      const others = rows.filter((row) => row.name.startsWith(INSTANCE)).map((row) => row.name.slice(INSTANCE.length));
      waiter.waiting = new Set(others.filter((other) => !waiter.acked.has(other)));
      if (waiter.waiting.size === 0) return;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        waiter.done = resolve;
        timer = setTimeout(resolve, LEASE_MS);
      });
      clearTimeout(timer);
    } catch {
      // The write is committed: never fail its caller. Every other instance reads again within a
      // heartbeat, or loses its lease within LEASE_MS.
      await pause(LEASE_MS);
    } finally {
      waiters.delete(tag);
    }
  };
  const afterWrite = coalesced(barrier);

  // Connects now, so a database that is unreachable fails the start, as the pool's first query does.
  await readNow();
  const heartbeat = leased ? setInterval(() => void sharedRead().catch(() => undefined), HEARTBEAT_MS).unref() : undefined;
  return {
    read: () => (answer && performance.now() - leaseFrom < LEASE_MS ? answer : sharedRead()),
    afterWrite,
    close: async () => {
      closed = true;
      clearInterval(heartbeat);
      for (const waiter of waiters.values()) waiter.done?.();
      const link = current;
      current = undefined;
      if (link) await end(link);
    },
  };
}
