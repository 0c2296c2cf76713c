// The change versions of the read cache (server/db/changeVersions.ts, changeCounter.ts) on the
// suite's database: triggers move 'data' on every commit that changes what a screen shows and
// 'sessions' on session changes, whoever commits; bookkeeping moves neither; calls share reads, and
// each read still begins after every call it answers.
import Database from 'better-sqlite3';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openChangeCounter, type ChangeCounter } from '../../../server/db/changeCounter.js';
import { DAY_OF_READ, EARLIER_WINDOWS, untrackedTables } from '../../../server/db/changeVersions.js';
import { counterApplicationName, HEARTBEAT_MS } from '../../../server/db/postgresCounter.js';
import { migrateLatest } from '../../../server/db/migrate.js';
import { createSession } from '../../../server/services/sessions.js';
import { createUser } from '../../../server/services/users.js';
import { systemClock } from '../../../server/clock.js';
import { insertRequests } from '../../../fixtures/requests.js';
import { createClientAccount } from '../../../server/services/clients.js';
import { createTestDatabase, databaseKind, type TestDatabase } from '../../helpers/testDatabase.js';

const now = () => new Date().toISOString();
const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString();

describe(`change versions (${databaseKind()})`, () => {
  let database: TestDatabase;
  let counter: ChangeCounter;
  let userId: number;
  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateLatest(database.db);
    counter = await openChangeCounter(database.settings);
    const user = await createUser(database.db, systemClock, {
      email: 'versions@example.test',
      password: 'correct horse battery',
      firstName: 'Vera',
      lastName: 'Sion',
      contactNumber: '639171234567',
      role: 'staff',
      verified: true,
    });
    userId = user.id;
  });
  afterAll(async () => {
    await counter.close();
    await database.drop();
  });

  const audit = (db = database.db) => db('audit_log').insert({ at: now(), action: 'test.note' });
  /** The versions as read, without the database's day (which moves at midnight, not by commits). */
  const read = async () => {
    const { [DAY_OF_READ]: day, ...versions } = await counter.read();
    expect(day).toBeTypeOf('number');
    return versions;
  };

  it("gives the database's day with the versions, in days since 1970-01-01 (UTC)", async () => {
    const today = Math.floor(Date.now() / (24 * 60 * 60 * 1000));
    expect([today - 1, today, today + 1]).toContain((await counter.read())[DAY_OF_READ]);
  });

  it('tracks every table but bookkeeping', async () => {
    expect(await untrackedTables(database.db)).toEqual([]);
  });

  it('moves data, not sessions, on a commit that changes data', async () => {
    const before = await read();
    await audit();
    const after = await read();
    expect(after.data).toBeGreaterThan(before.data);
    expect(after.sessions).toBe(before.sessions);
  });

  it('moves the statuses a request leaves and enters, and the status of a request whose rows change', async () => {
    const client = await createClientAccount(
      database.db,
      systemClock,
      { email: 'versions-client@example.test', username: null, password: 'correct horse battery', firstName: 'C', lastName: 'V', contactNumber: '639171234567', verified: true },
      { companyName: 'Version Meats', ltoNo: 'LTO-9', classification: 'Importer' },
    );
    const moved = async (work: () => Promise<unknown>) => {
      const before = await read();
      await work();
      const after = await read();
      return Object.keys(after).filter((k) => after[k] !== before[k]).sort();
    };
    // Submitted 200 days ago, before the windows of 14 and 90 days but within the year's: each status
    // moves those two windows' versions too.
    const [fortnight, quarter, year] = EARLIER_WINDOWS.map((w) => w.suffix);
    const windowsOf = (status: string, suffixes: string[]) => [`status:${status}`, ...suffixes.map((suffix) => `status:${status}${suffix}`)];
    // As moved() names them: in name order.
    const named = (...names: string[]) => names.sort();
    let requestId = 0;
    expect(await moved(async () => ([{ requestId }] = await insertRequests(database.db, [{ clientUserId: client.id, tests: ['eColi'], status: 'PENDING_REVIEW', submissionDate: daysAgo(200) }])))).toEqual(named('data', ...windowsOf('PENDING_REVIEW', [fortnight, quarter])));
    expect(await moved(() => database.db('requests').where({ id: requestId }).update({ status: 'FOR_TESTING' }))).toEqual(named('data', ...windowsOf('FOR_TESTING', [fortnight, quarter]), ...windowsOf('PENDING_REVIEW', [fortnight, quarter])));
    expect(await moved(() => database.db('samples').where({ request_id: requestId }).update({ sample_type_description: 'Beef shank' }))).toEqual(named('data', ...windowsOf('FOR_TESTING', [fortnight, quarter])));
    expect(await moved(() => database.db('samples').insert({ request_id: requestId, position: 9, sample_type_description: 'Pork belly' }))).toEqual(named('data', ...windowsOf('FOR_TESTING', [fortnight, quarter])));
    expect(await moved(() => database.db('samples').where({ request_id: requestId, position: 9 }).delete())).toEqual(named('data', ...windowsOf('FOR_TESTING', [fortnight, quarter])));
    // Submitted 400 days ago: every window's; 30 days ago: the fortnight's only.
    const [{ requestId: lastYear }] = await insertRequests(database.db, [{ clientUserId: client.id, tests: ['eColi'], status: 'FOR_RELEASE', submissionDate: daysAgo(400) }]);
    expect(await moved(() => database.db('analyses').where({ request_id: lastYear }).update({ value: 'Absent' }))).toEqual(named('data', ...windowsOf('FOR_RELEASE', [fortnight, quarter, year])));
    const [{ requestId: lastMonth }] = await insertRequests(database.db, [{ clientUserId: client.id, tests: ['eColi'], status: 'FOR_RELEASE', submissionDate: daysAgo(30) }]);
    expect(await moved(() => database.db('requests').where({ id: lastMonth }).update({ lot_batch_no: 'LOT-30' }))).toEqual(named('data', ...windowsOf('FOR_RELEASE', [fortnight])));
    // Submitted within the window (today): only its status.
    const today = new Date().toISOString();
    let recent = 0;
    expect(await moved(async () => ([{ requestId: recent }] = await insertRequests(database.db, [{ clientUserId: client.id, tests: ['eColi'], status: 'PENDING_REVIEW', submissionDate: today }])))).toEqual(['data', 'status:PENDING_REVIEW']);
    expect(await moved(() => database.db('requests').where({ id: recent }).update({ status: 'FOR_TESTING' }))).toEqual(['data', 'status:FOR_TESTING', 'status:PENDING_REVIEW']);
    expect(await moved(() => database.db('samples').where({ request_id: recent }).update({ sample_type_description: 'Veal' }))).toEqual(['data', 'status:FOR_TESTING']);
    // A statement over the rows of requests in two statuses moves both.
    const [{ requestId: released }] = await insertRequests(database.db, [{ clientUserId: client.id, tests: ['eColi'], status: 'RELEASED', submissionDate: today }]);
    expect(await moved(() => database.db('samples').whereIn('request_id', [recent, released]).update({ sample_type_description: 'Beef' }))).toEqual(['data', 'status:FOR_TESTING', 'status:RELEASED']);
    // A row moved to another request moves the statuses of both.
    expect(await moved(() => database.db('samples').where({ request_id: recent }).update({ request_id: released, position: 99 }))).toEqual(['data', 'status:FOR_TESTING', 'status:RELEASED']);
    expect(await moved(() => database.db('users').where({ id: client.id }).update({ first_name: 'Cleo' }))).toEqual(['data', 'people']);
    expect(await moved(() => audit())).toEqual(['data']);
  });

  it('moves sessions, not data, when a session is created or touched', async () => {
    const before = await read();
    await createSession(database.db, systemClock, { idleMinutes: 60, maxHours: 12 }, userId);
    await database.db('sessions').where({ user_id: userId }).update({ last_seen_at: now() });
    const after = await read();
    expect(after.sessions).toBeGreaterThan(before.sessions);
    expect({ ...after, sessions: 0 }).toEqual({ ...before, sessions: 0 });
  });

  it('moves nothing for rate-limit counters, codes and mail', async () => {
    const before = await read();
    await database.db('rate_limits').insert({ key: `k-${Math.random()}`, window_start: now(), count: 1 });
    await database.db('outbox').where('id', -1).delete();
    await database.db('one_time_codes').where('id', -1).delete();
    expect(await read()).toEqual(before);
  });

  it('moves once per transaction that commits, and not for one rolled back', async () => {
    const before = await read();
    await database.db.transaction(async (trx) => {
      await audit(trx);
      await audit(trx);
    });
    const once = await read();
    expect(once.data).toBeGreaterThan(before.data);
    await database.db
      .transaction(async (trx) => {
        await audit(trx);
        throw new Error('changed my mind');
      })
      .catch(() => undefined);
    expect(await read()).toEqual(once);
  });

  it('moves for each of several transactions committing at the same time', async () => {
    const before = await read();
    await Promise.all(Array.from({ length: 5 }, () => database.db.transaction((trx) => audit(trx))));
    const after = await read();
    // SQLite moves once per row; PostgreSQL once per transaction. Either way, five commits show.
    expect(after.data - before.data).toBeGreaterThanOrEqual(5);
  });

  it('answers calls made after a read with a new read', async () => {
    const earlier = await read();
    await audit();
    expect((await read()).data).not.toBe(earlier.data);
    const [a, b] = await Promise.all([read(), read()]);
    expect(a).toEqual(b);
  });

  if (databaseKind() === 'sqlite') {
    it('answers calls made together with one read that began after the last of them', async () => {
      // Another process's connection commits between the two calls, in the same turn of the event loop.
      const writer = new Database((database.settings as { filename: string }).filename);
      try {
        const before = await counter.read();
        const first = counter.read();
        writer.prepare('insert into audit_log (at, action) values (?, ?)').run(now(), 'test.note');
        const second = counter.read();
        expect(second).toBe(first);
        expect((await first).data).toBeGreaterThan(before.data);
      } finally {
        writer.close();
      }
    });
  } else {
    it('answers the calls of one turn with one read, and those that come while it is under way with one next read, begun after it', async () => {
      const first = counter.read();
      const second = counter.read();
      // Both came before the read began (it begins once the turn is over): they share it.
      expect(second).toBe(first);
      await new Promise((resolve) => setImmediate(resolve));
      // That read is under way now: these two share the next one.
      const third = counter.read();
      const fourth = counter.read();
      expect(fourth).toBe(third);
      expect(third).not.toBe(first);
      expect(await third).toEqual(await first);
    });
  }

  if (databaseKind() === 'postgres') {
    it('reads on a new connection once its own was cut (PostgreSQL restarted, network dropped)', async () => {
      const settings = database.settings as { searchPath?: string };
      const before = await counter.read();
      const cut = await database.db.raw('select pg_terminate_backend(pid) as cut from pg_stat_activity where application_name = ?', [counterApplicationName(settings.searchPath)]);
      expect(cut.rows).toEqual([{ cut: true }]);
      // The read that meets the cut connection may fail; the one after it answers, seeing new commits.
      await counter.read().catch(() => undefined);
      await audit();
      expect((await counter.read()).data).toBeGreaterThan(before.data);
    });

    describe('instances of labctl serve (leased reads)', () => {
      const pgSettings = () => database.settings as { client: 'pg'; connectionString: string; searchPath?: string };
      const instance = (connectionString = pgSettings().connectionString) => openChangeCounter({ ...pgSettings(), connectionString }, { leased: true });

      it('shows a write in the next read on another instance once its writer acknowledged it', async () => {
        const [a, b] = [await instance(), await instance()];
        try {
          // Repeated: the acknowledgement and the acknowledging instance's own answer race each other.
          for (let i = 0; i < 20; i += 1) {
            const [writer, reader] = i % 2 ? [a, b] : [b, a];
            const before = await reader.read();
            await audit();
            await writer.afterWrite();
            expect((await reader.read()).data).toBeGreaterThan(before.data);
            expect((await writer.read()).data).toBe((await reader.read()).data);
          }
        } finally {
          await Promise.all([a.close(), b.close()]);
        }
      });

      it('shows a commit that no barrier followed within a heartbeat', async () => {
        const b = await instance();
        try {
          const before = await b.read();
          await audit();
          await expect.poll(async () => (await b.read()).data, { timeout: HEARTBEAT_MS * 3, interval: 50 }).toBeGreaterThan(before.data);
        } finally {
          await b.close();
        }
      });

      it('does not wait for an instance that stopped', async () => {
        const [a, b] = [await instance(), await instance()];
        await b.close();
        try {
          // Nothing lists a closed instance's connection: the barrier is acknowledged by no one, at once.
          vi.useFakeTimers({ toFake: ['setTimeout'] });
          await audit();
          await a.afterWrite();
        } finally {
          vi.useRealTimers();
          await a.close();
        }
      });

      it('waits at most a lease for an instance cut off from the database, which then answers nothing from its lease until it reads again', async () => {
        const link = await pausableLink(new URL(pgSettings().connectionString));
        const [a, b] = [await instance(), await instance(link.url)];
        try {
          const before = await b.read();
          link.pause();
          await audit();
          // b never sees the barrier while cut off: a answers after b's lease is over.
          await a.afterWrite();
          const next = b.read();
          link.resume();
          expect((await next).data).toBeGreaterThan(before.data);
        } finally {
          link.resume();
          await Promise.all([a.close(), b.close()]);
          await link.close();
        }
      });
    });
  }
});

/**
 * A TCP relay to PostgreSQL that can stop passing bytes both ways, as a network that drops an
 * instance's packets without closing its connection: `url` is `target` through the relay.
 */
async function pausableLink(target: URL) {
  let paused = false;
  const pairs = new Set<[net.Socket, net.Socket]>();
  const server = net.createServer((inbound) => {
    const outbound = net.connect(Number(target.port || 5432), target.hostname);
    const pair: [net.Socket, net.Socket] = [inbound, outbound];
    pairs.add(pair);
    if (paused) pair.forEach((socket) => socket.pause());
    inbound.pipe(outbound);
    outbound.pipe(inbound);
    const close = () => {
      pairs.delete(pair);
      pair.forEach((socket) => socket.destroy());
    };
    inbound.on('close', close).on('error', close);
    outbound.on('close', close).on('error', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  const each = (fn: (socket: net.Socket) => void) => pairs.forEach((pair) => pair.forEach(fn));
  return {
    url: url.toString(),
    pause: () => {
      paused = true;
      each((socket) => socket.pause());
    },
    resume: () => {
      paused = false;
      each((socket) => socket.resume());
    },
    close: async () => {
      each((socket) => socket.destroy());
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
