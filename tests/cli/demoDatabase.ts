// A database for labctl tests, on SQLite or (with TEST_DATABASE_URL) in a fresh PostgreSQL schema,
// holding the demo accounts and the demo requests as `labctl seed --demo` makes them on 20 March 2026:
// control numbers 2026-0001 (RELEASED), 2026-0002 (FOR RELEASE), 2026-0003 to 2026-0005 (FOR
// TESTING), which fixtures/results-*.csv name. labctlOnDatabase() sets one up per test for labctl.
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { insertDemoRequests } from '../../fixtures/demoRequests.js';
import { migrateLatest } from '../../server/db/migrate.js';
import { seedDemoAccounts } from '../../server/services/demo.js';
import type { SeededRequest } from '../../fixtures/requests.js';
import { TestClock } from '../helpers/testClock.js';
import { databaseUrl } from '../helpers/serveProcess.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';
import { labctl, removeDir, tempDataDir, type LabctlResult, type RunOptions } from './labctl.js';

export const DEMO_TODAY = '2026-03-20T09:00:00.000Z';

export interface DemoDatabase extends TestDatabase {
  requests: SeededRequest[];
  userId(email: string): Promise<number>;
}

/** DATABASE_URL for labctl: the SQLite file, or the PostgreSQL database with the test's schema. */
export function labctlEnv(database: TestDatabase): Record<string, string> {
  return { DATABASE_URL: databaseUrl(database) };
}

export async function openDemoDatabase(): Promise<DemoDatabase> {
  const database = await createTestDatabase();
  await migrateLatest(database.db);
  const clock = new TestClock(DEMO_TODAY);
  await seedDemoAccounts(database.db, clock);
  const requests = await insertDemoRequests(database.db, clock.now());
  return {
    ...database,
    requests,
    async userId(email) {
      return Number((await database.db('users').where({ email }).first('id')).id);
    },
  };
}

/** Status of each request by control number (or id when it has none). */
export async function statuses(db: TestDatabase['db']): Promise<Record<string, string>> {
  const rows = await db('requests').orderBy('id').select('id', 'control_number', 'status');
  return Object.fromEntries(rows.map((r) => [r.control_number ?? String(r.id), r.status]));
}

export interface LabctlOnDatabase<D extends TestDatabase> {
  readonly database: D;
  readonly dataDir: string;
  /** labctl on this database and data directory. */
  run(args: string[], options?: RunOptions): Promise<LabctlResult>;
}

/**
 * Registers hooks giving each test (scope 'each') or the whole file or describe ('all') a database
 * made by `open` and a data directory, both removed afterwards.
 */
export function labctlOnDatabase<D extends TestDatabase>(open: () => Promise<D>, scope: 'each' | 'all' = 'each'): LabctlOnDatabase<D> {
  let database!: D;
  let dataDir!: string;
  const [setUp, tearDown] = scope === 'each' ? [beforeEach, afterEach] : [beforeAll, afterAll];
  setUp(async () => {
    database = await open();
    dataDir = tempDataDir();
  });
  tearDown(async () => {
    await database.drop();
    removeDir(dataDir);
  });
  return {
    get database() {
      return database;
    },
    get dataDir() {
      return dataDir;
    },
    run: (args, options = {}) => labctl(args, dataDir, { ...options, env: { ...labctlEnv(database), ...options.env } }),
  };
}
