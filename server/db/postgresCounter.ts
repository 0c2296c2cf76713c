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
//   listening. Each instance that receives it reads the versions again (a read begun after the write
//   committed) and acknowledges in that same statement, by a NOTIFY back; the writer answers its
//   caller once every instance listed acknowledged, or once LEASE_MS passed, by when an instance that
//   never received the barrier has lost its lease: PostgreSQL delivers a notification before the
//   answer to any later statement on the listening connection, so a read sent after the barrier
//   committed comes back after it, overtaken. The proof and the alternatives: DESIGN.md §2.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { DAY_OF_READ, versionsOf, type Versions } from './changeVersions.js';
import { coalesced } from './coalesce.js';
import { CONNECT_TIMEOUT_MS } from './knex.js';

/** How long an instance answers from the versions of its last read. */
export const LEASE_MS = 3_000;
/** How often an instance reads the versions when nothing else makes it. */
export const HEARTBEAT_MS = 1_000;

export interface PostgresCounter {
  read(): Promise<Versions>;
  /** Resolves once every instance has read the versions after the commits this process made before the call. */
  afterWrite(): Promise<void>;
  close(): Promise<void>;
}

export interface PostgresCounterOptions {
  connectionString: string;
  searchPath?: string;
  /** An instance of `labctl serve`: reads from its lease, acknowledges barriers. */
  leased: boolean;
}

const VERSIONS = `SELECT name, sum(n) AS n FROM lab_versions GROUP BY name UNION ALL SELECT '${DAY_OF_READ}', (now() AT TIME ZONE 'UTC')::date - DATE '1970-01-01'`;
// The same read and a NOTIFY ($1 channel, $2 message), which commits after the read: the row is not a version.
const NOTIFIED = 'notified';
const VERSIONS_AND_NOTIFY = `${VERSIONS} UNION ALL SELECT '${NOTIFIED}', 0 FROM (SELECT pg_notify($1, $2)) AS notify`;
// ...and the instances of the schema listening ($3: application_name LIKE), one row each.
const INSTANCE = 'instance ';
const BARRIER = `${VERSIONS_AND_NOTIFY} UNION ALL SELECT '${INSTANCE}' || split_part(application_name, ' ', 3), 0 FROM pg_stat_activity WHERE application_name LIKE $3 AND pid <> pg_backend_pid()`;

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

export async function openPostgresCounter({ connectionString, searchPath, leased }: PostgresCounterOptions): Promise<PostgresCounter> {
  const id = randomBytes(4).toString('hex');
  let current: Promise<Link> | undefined;
  let answer: Promise<Versions> | undefined;
  let leaseFrom = -Infinity;
  // Barriers received from other processes, and those not yet acknowledged.
  let barriersSeen = 0;
  let unacknowledged: string[] = [];
  let barriersSent = 0;
  const waiters = new Map<string, Waiter>();

  const onNotification = (link: Link, message: pg.Notification) => {
    if (message.channel !== link.channel || !message.payload) return;
    const [kind, from, ...tags] = message.payload.split(' ');
    if (from === id) return;
    if (kind === 'b' && leased) {
      // From now on reads wait for the read below: it acknowledges the barrier in its statement, so
      // its writer may answer before this process has taken that read's answer.
      leaseFrom = -Infinity;
      barriersSeen += 1;
      unacknowledged.push(...tags);
      void sharedRead().catch(() => undefined);
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

  /** Runs `query` on the connection; its rows' versions become this instance's unless a barrier overtook it. */
  const versionsQuery = async (query: (link: Link) => Promise<pg.QueryResult<{ name: string; n: string }>>) => {
    const link = connection();
    const seen = barriersSeen;
    const sentAt = performance.now();
    try {
      const { rows } = await query(await link);
      const read = versionsOf(rows.filter((row) => row.name !== NOTIFIED && !row.name.startsWith(INSTANCE)));
      answer = Promise.resolve(read);
      leaseFrom = leased && seen === barriersSeen ? sentAt : -Infinity;
      return { read, rows };
    } catch (err) {
      forget(link);
      throw err;
    }
  };

  const readNow = async () => {
    const acks = unacknowledged;
    unacknowledged = [];
    const { read } = await versionsQuery(({ client, channel }) =>
      acks.length
        ? client.query({ name: 'lab_versions_ack', text: VERSIONS_AND_NOTIFY, values: [channel, `a ${id} ${acks.join(' ')}`] })
        : client.query({ name: 'lab_versions', text: VERSIONS }),
    );
    return read;
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
      const { rows } = await versionsQuery(({ client, channel, scope }) =>
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
