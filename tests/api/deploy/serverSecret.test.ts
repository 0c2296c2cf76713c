// The generated server secret lives in the database, so instances on different machines (each with
// its own DATA_DIR) key one-time codes alike; an installation upgrading from DATA_DIR/secret.key
// keeps its secret, moved into the database.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../server/clock.js';
import { createDb } from '../../../server/db/knex.js';
import { migrateLatest } from '../../../server/db/migrate.js';
import { LEGACY_SECRET_FILE, serverSecret } from '../../../server/services/serverSecret.js';
import { createTestDatabase, databaseKind, type TestDatabase } from '../../helpers/testDatabase.js';

describe(`the server secret (${databaseKind()})`, () => {
  let database: TestDatabase;
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-secret-'));
    dirs.push(dir);
    return dir;
  };

  beforeEach(async () => {
    database = await createTestDatabase();
    await migrateLatest(database.db);
  });
  afterEach(async () => {
    await database.drop();
    dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
  });

  it('is generated once into the database: instances with their own DATA_DIR starting together agree, and nothing is written to DATA_DIR', async () => {
    // Each instance has its own connection pool, as separate processes would.
    const handles = Array.from({ length: 4 }, () => createDb(database.settings));
    const homes = handles.map(() => dataDir());
    try {
      const secrets = await Promise.all(handles.map((db, i) => serverSecret({ db, clock: systemClock, config: { dataDir: homes[i] } })));
      expect(new Set(secrets).size).toBe(1);
      expect(secrets[0].length).toBeGreaterThanOrEqual(40);
      expect(await database.db('settings').where({ key: 'server_secret' }).pluck('value')).toEqual([secrets[0]]);
      expect(homes.map((home) => fs.readdirSync(home))).toEqual(homes.map(() => []));
    } finally {
      await Promise.all(handles.map((db) => db.destroy()));
    }
  });

  it('moves an existing DATA_DIR/secret.key into the database on upgrade, then no longer reads the file', async () => {
    const home = dataDir();
    const legacy = crypto.randomBytes(32).toString('base64url');
    fs.writeFileSync(path.join(home, LEGACY_SECRET_FILE), `${legacy}\n`, { mode: 0o600 });
    expect(await serverSecret({ db: database.db, clock: systemClock, config: { dataDir: home } })).toBe(legacy);
    expect(await database.db('settings').where({ key: 'server_secret' }).pluck('value')).toEqual([legacy]);
    expect(fs.readdirSync(home)).toEqual([]);

    // Another machine of the same database, still holding a secret.key of its own: the database wins.
    const other = createDb(database.settings);
    const otherHome = dataDir();
    fs.writeFileSync(path.join(otherHome, LEGACY_SECRET_FILE), 'another-secret-of-another-machine-0123456789', { mode: 0o600 });
    try {
      expect(await serverSecret({ db: other, clock: systemClock, config: { dataDir: otherHome } })).toBe(legacy);
      expect(fs.readdirSync(otherHome)).toEqual([]);
    } finally {
      await other.destroy();
    }
  });

  it('is SECRET_KEY when set, and then none is generated', async () => {
    const secretKey = 's'.repeat(40);
    expect(await serverSecret({ db: database.db, clock: systemClock, config: { dataDir: dataDir(), secretKey } })).toBe(secretKey);
    expect(await database.db('settings')).toEqual([]);
  });
});
