// The change counter of the read cache (server/db/changeCounter.ts) on a real SQLite file, whichever
// database the rest of the suite runs on: calls share reads, and each read still begins after every
// call it answers, so a commit made before a call always shows in what it is answered.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openChangeCounter, type ChangeCounter } from '../../../server/db/changeCounter.js';

describe('change counter', () => {
  let dir: string;
  let writer: Database.Database;
  let counter: ChangeCounter;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-counter-'));
    const filename = path.join(dir, 'lab.sqlite');
    // Another process's connection, as labctl or a second server would write.
    writer = new Database(filename);
    writer.pragma('journal_mode = WAL');
    writer.exec('create table notes (id integer primary key, body text)');
    counter = await openChangeCounter(filename);
  });
  afterAll(async () => {
    await counter.close();
    writer.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const commit = () => writer.prepare('insert into notes (body) values (?)').run('a note');

  it('shows a commit made before the call', async () => {
    const before = await counter.read();
    commit();
    expect(await counter.read()).not.toBe(before);
  });

  it('answers calls made together with one read that began after the last of them', async () => {
    const before = await counter.read();
    const first = counter.read();
    // Committed after the first call and before the second, in the same turn of the event loop.
    commit();
    const second = counter.read();
    expect(second).toBe(first);
    expect(await first).not.toBe(before);
  });

  it('reads again for a call made after a read', async () => {
    const earlier = await counter.read();
    commit();
    expect(await counter.read()).not.toBe(earlier);
    expect(await counter.read()).toBe(await counter.read());
  });
});
