// The data directory holds the database, its backups and the mail outbox (live codes): everything the
// server creates there is readable by its own account only. (The generated server secret lives in
// the database: tests/api/deploy/serverSecret.test.ts.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../../../server/db/knex.js';
import { createLogger } from '../../../server/logger.js';
import { createMailer } from '../../../server/mail/mailer.js';
import { ensurePrivateDir, ensurePrivateFile } from '../../../server/privateFiles.js';

const modeOf = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);

describe('files in the data directory', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-modes-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('creates the data directory 0700 and the SQLite database, its WAL and a backup 0600', async () => {
    const dataDir = path.join(root, 'data');
    const filename = path.join(dataDir, 'lab.sqlite');
    const db = createDb({ client: 'sqlite3', filename });
    try {
      await db.schema.createTable('t', (t) => t.increments('id'));
      await db('t').insert({});
      const backupDir = path.join(dataDir, 'backups');
      // What `labctl backup` does, from the same helpers.
      ensurePrivateDir(backupDir);
      const backup = path.join(backupDir, 'copy.sqlite');
      ensurePrivateFile(backup);
      await db.raw('VACUUM INTO ?', [backup]);
      expect(fs.statSync(backup).size).toBeGreaterThan(0);
      expect({ dataDir: modeOf(dataDir), db: modeOf(filename), wal: modeOf(`${filename}-wal`), backups: modeOf(backupDir), backup: modeOf(backup) }).toEqual({
        dataDir: '700',
        db: '600',
        wal: '600',
        backups: '700',
        backup: '600',
      });
    } finally {
      await db.destroy();
    }
  });

  it('writes outbox mail 0600 in a 0700 outbox', async () => {
    const outboxDir = path.join(root, 'mail', 'outbox');
    const mailer = createMailer({ from: 'lab@test.local', outboxDir, demo: false, logger: createLogger('silent'), print: () => undefined });
    await mailer.send({ to: 'a@example.test', subject: 'Your login code', text: '123456', html: '<p>123456</p>' });
    mailer.close();
    const [message] = fs.readdirSync(outboxDir);
    expect({ outbox: modeOf(outboxDir), mail: modeOf(path.join(outboxDir, message)) }).toEqual({ outbox: '700', mail: '600' });
  });

  it('creates missing parents of a directory 0700 one level at a time, and fails where the file system refuses one instead of retrying forever', () => {
    const nested = path.join(root, 'copies', 'of', 'backups');
    ensurePrivateDir(nested);
    expect(['copies', 'copies/of', 'copies/of/backups'].map((d) => modeOf(path.join(root, d)))).toEqual(['700', '700', '700']);
    ensurePrivateDir(nested); // there already: left as it is
    // mkdirSync's recursive option never returns here: /proc answers ENOENT under a parent that exists.
    expect(() => ensurePrivateDir('/proc/lab-data/backups')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    const file = path.join(root, 'a-file');
    fs.writeFileSync(file, '');
    expect(() => ensurePrivateDir(file)).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(() => ensurePrivateDir(path.join(file, 'backups'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
  });
});
