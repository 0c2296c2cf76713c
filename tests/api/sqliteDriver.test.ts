// The SQLite client (server/db/sqliteClient.ts) on a real file, whichever database the rest of the
// suite runs on: a second process's write lock is waited for without stopping the server, writes
// sent together share one transaction, and a commit settles only once its WAL is on disk, flushed
// off the event loop while the connection serves the next statement.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDb, type Db } from '../../server/db/knex.js';
import { inBatchedTransaction, inTransaction } from '../../server/db/transaction.js';

describe('SQLite client', () => {
  let dir: string;
  let filename: string;
  let db: Db;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-driver-'));
    filename = path.join(dir, 'lab.sqlite');
    db = createDb({ client: 'sqlite3', filename });
    await db.schema.createTable('notes', (t) => {
      t.increments('id');
      t.string('body').notNullable().unique();
    });
  });
  afterAll(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Another process's connection holding the write lock, as labctl does during an import. */
  let held = 0;
  function holdWriteLock() {
    const other = new Database(filename);
    other.exec('BEGIN IMMEDIATE');
    other.prepare('insert into notes (body) values (?)').run(`from the other process ${(held += 1)}`);
    return {
      commit: () => {
        other.exec('COMMIT');
        other.close();
      },
    };
  }

  /** Timer callbacks that run while `work` is pending: none when something blocks the event loop. */
  async function ticksWhile(start: () => PromiseLike<unknown>, release: () => void, holdMs = 300) {
    // Started once: a knex query is a thenable that runs again on every then().
    const work = (async () => start())();
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 10);
    let settled = false;
    work.then(
      () => (settled = true),
      () => (settled = true),
    );
    await new Promise((resolve) => setTimeout(resolve, holdMs));
    const settledWhileLocked = settled;
    release();
    await work;
    clearInterval(timer);
    return { ticks, settledWhileLocked };
  }

  it('waits for another process to finish writing, with the event loop free, then writes', async () => {
    const lock = holdWriteLock();
    const { ticks, settledWhileLocked } = await ticksWhile(() => db('notes').insert({ body: 'single statement' }), lock.commit);
    expect(settledWhileLocked).toBe(false);
    // A 10 ms timer over a 300 ms wait: SQLite's own busy wait would have let it run once at most.
    // (About 13 times on an idle machine; at least 3 in a full `npm test` on two loaded cores.)
    expect(ticks).toBeGreaterThanOrEqual(2);
    expect(await db('notes').orderBy('id').pluck('body')).toEqual(['from the other process 1', 'single statement']);
  });

  it('begins a transaction once the other process commits, without blocking meanwhile', async () => {
    const lock = holdWriteLock();
    const work = () =>
      inTransaction(db, async (trx) => {
        const seen = await trx('notes').count({ n: '*' }).first();
        await trx('notes').insert({ body: `after ${seen!.n}` });
      });
    const { ticks, settledWhileLocked } = await ticksWhile(work, lock.commit);
    expect(settledWhileLocked).toBe(false);
    expect(ticks).toBeGreaterThanOrEqual(2);
    // The transaction began after the other commit, so it counted that row too.
    expect(await db('notes').orderBy('id').pluck('body')).toContain(`after ${3}`);
  });

  it('answers a constraint failure at once, without waiting as for a lock', async () => {
    await expect(db('notes').insert({ body: 'single statement' })).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
  });

  it('runs writes that arrive in the same turn of the event loop in one transaction, each in its own savepoint', async () => {
    const begins: string[] = [];
    const onQuery = (q: { sql: string }) => {
      if (/^begin/i.test(q.sql)) begins.push(q.sql);
    };
    db.on('query', onQuery);
    try {
      const bodies = Array.from({ length: 25 }, (_, i) => `batched ${i}`);
      // Each from its own callback, as the requests of several clients arrive.
      const outcomes = await Promise.allSettled(
        [...bodies, 'batched 3'].map(
          (body) => new Promise((resolve, reject) => setImmediate(() => inBatchedTransaction(db, (trx) => trx('notes').insert({ body })).then(resolve, reject))),
        ),
      );
      expect(outcomes.map((o) => o.status)).toEqual([...bodies.map(() => 'fulfilled'), 'rejected']);
      // One transaction, or a few when a loaded machine makes the batch pass its time budget: never one a write.
      expect(begins.length).toBeLessThan(bodies.length / 4);
      expect(await db('notes').where('body', 'like', 'batched %').count({ n: '*' }).first()).toEqual({ n: 25 });
    } finally {
      db.off('query', onQuery);
    }
  });

  describe('durable commits', () => {
    afterEach(() => vi.restoreAllMocks());

    /** Holds every fdatasync of the WAL until released; counts them. */
    function holdFlushes() {
      const held: Array<() => void> = [];
      const real = fs.fdatasync;
      const spy = vi.spyOn(fs, 'fdatasync').mockImplementation(((fd: number, done: (err: NodeJS.ErrnoException | null) => void) => {
        held.push(() => real(fd, done));
      }) as typeof fs.fdatasync);
      const waitForFlush = async () => {
        for (let i = 0; i < 100 && held.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
        expect(held.length).toBeGreaterThan(0);
      };
      return { spy, waitForFlush, release: () => held.splice(0).forEach((flush) => flush()) };
    }

    it("leaves the disk flush to the client: SQLite's own is synchronous=NORMAL", async () => {
      expect(await db.raw('PRAGMA synchronous')).toEqual([{ synchronous: 1 }]);
    });

    it('settles a transaction after its WAL is flushed, and lets the next statement run meanwhile', async () => {
      const flushes = holdFlushes();
      let settled = false;
      const write = inTransaction(db, (trx) => trx('notes').insert({ body: 'flushed before settling' })).then(() => (settled = true));
      await flushes.waitForFlush();
      // The commit ran (another statement sees its row) and gave the connection back; not yet settled.
      expect(await db('notes').where('body', 'flushed before settling').count({ n: '*' }).first()).toEqual({ n: 1 });
      expect(settled).toBe(false);
      flushes.release();
      await write;
      expect(settled).toBe(true);
    });

    it('settles a write outside a transaction after its flush too, and a read without one', async () => {
      const flushes = holdFlushes();
      await db('notes').count({ n: '*' });
      expect(flushes.spy).not.toHaveBeenCalled();
      // A knex query runs once it is awaited or then'd.
      const write = db('notes').insert({ body: 'autocommitted' }).then(() => undefined);
      await flushes.waitForFlush();
      flushes.release();
      await write;
      expect(flushes.spy).toHaveBeenCalled();
    });

    it('answers a failed flush as a failed write', async () => {
      vi.spyOn(fs, 'fdatasync').mockImplementation(((_fd: number, done: (err: NodeJS.ErrnoException | null) => void) => {
        done(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
      }) as typeof fs.fdatasync);
      await expect(inTransaction(db, (trx) => trx('notes').insert({ body: 'lost to the disk' }))).rejects.toMatchObject({ code: 'EIO' });
    });
  });
});
