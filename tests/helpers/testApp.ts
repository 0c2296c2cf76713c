// The app as API tests see it: listening on port 0 with its own database, a real SMTP mailbox and a
// clock the test moves. Nothing is mocked.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../../server/app.js';
import { loadConfig, type Config } from '../../server/config.js';
import { migrateLatest } from '../../server/db/migrate.js';
import { createLogger } from '../../server/logger.js';
import { createMailer } from '../../server/mail/mailer.js';
import { startOutboxWorker } from '../../server/mail/outboxWorker.js';
import { createClientAccount } from '../../server/services/clients.js';
import { hashPassword, PASSWORD_HASH_COST } from '../../server/services/secrets.js';
import { createSession } from '../../server/services/sessions.js';
import { createUser, type User } from '../../server/services/users.js';
import type { Role } from '../../server/domain/roles.js';
import { HttpClient } from './httpClient.js';
import { startMailbox, type Mailbox } from './mailbox.js';
import { TestClock } from './testClock.js';
import { createTestDatabase, type TestDatabase } from './testDatabase.js';
import type { AppDeps } from '../../server/http/context.js';
import { createReadCache } from '../../server/services/readCache.js';

export interface TestApp {
  url: string;
  db: TestDatabase['db'];
  dbKind: TestDatabase['kind'];
  clock: TestClock;
  mailbox: Mailbox;
  config: Config;
  /** Every log line the app wrote (JSON text). */
  logLines: string[];
  deps: AppDeps;
  /** Sends the mail queued so far, as the server's outbox worker does right after each commit. */
  sendQueuedMail(): Promise<void>;
  /** A fresh client with no cookies (a new browser). */
  anonymous(): HttpClient;
  /** Creates a verified, active user of `role` and returns a signed-in client for it. */
  signedIn(role: Role, overrides?: Partial<UserSeed>): Promise<{ user: User; http: HttpClient }>;
  /** Creates a verified, active user without signing it in. */
  createUser(role: Role, overrides?: Partial<UserSeed>): Promise<User>;
  close(): Promise<void>;
}

export interface UserSeed {
  email: string;
  username: string | null;
  password: string;
  firstName: string;
  lastName: string;
  companyName: string;
  ltoNo: string;
  classification: string;
}

/** The password of every user the test app creates (sign a release with it). */
export const TEST_PASSWORD = 'correct horse battery';

let sequence = 0;
/**
 * TEST_PASSWORD hashed once per test process: every test user shares it (real scrypt, one salt), at
 * a sixteenth of the product's cost. A login checks a hash at the cost it was made with, so the
 * suites' hundreds of logins (the rate-limit tests alone make more than two hundred) each take about
 * 3 ms of scrypt instead of 48: at the product's cost they were a quarter of an API suite's CPU.
 * Accounts registered through the API are hashed at the product's cost (accounts/registration.test.ts).
 */
const TEST_HASH_COST = { ...PASSWORD_HASH_COST, N: PASSWORD_HASH_COST.N / 16 };
let testPasswordHash: Promise<string> | undefined;

export interface TestAppOptions {
  readCache?: boolean;
  /** A database migrated by the caller (e.g. as another role), instead of a new one; closing the app drops it. */
  database?: TestDatabase;
}

export async function startTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  if (!options.database) await migrateLatest(database.db);
  const mailbox = await startMailbox();
  const clock = new TestClock();
  const config: Config = {
    ...loadConfig({ DATA_DIR: path.join(os.tmpdir(), 'lab-test-data'), LOG_LEVEL: 'silent', ...env }),
    database: database.settings,
    smtpUrl: mailbox.url,
  };
  // Logs are kept in memory so tests can assert what is (and is not) logged.
  const logLines: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void logLines.push(line) });
  const mailer = createMailer({ smtpUrl: mailbox.url, from: 'lab@test.local', outboxDir: '', demo: false, logger });
  // The worker sends right after each commit that queued mail; failed sends are retried within a second.
  const outbox = startOutboxWorker({ db: database.db, mailer, logger, clock, pollMs: 500, retryBaseMs: 100, retryMaxMs: 1_000 });
  // Sessions and lists are answered from the read cache between commits, as `labctl serve` does.
  const reads = options.readCache === false ? undefined : await createReadCache(database.settings);
  const deps: AppDeps = { config, db: database.db, clock, logger, outbox, reads };
  const app = createApp({ ...deps, uiDir: path.join(os.tmpdir(), 'lab-no-ui') });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const createTestUser = async (role: Role, overrides: Partial<UserSeed> = {}) => {
    sequence += 1;
    const seed: UserSeed = {
      email: `${role}${sequence}-${process.pid}@example.test`,
      username: `${role}${sequence}`,
      password: TEST_PASSWORD,
      firstName: 'Test',
      lastName: `${role[0].toUpperCase()}${role.slice(1)}`,
      companyName: 'Example Meats Corp.',
      ltoNo: 'LTO-TEST-1',
      classification: 'Importer',
      ...overrides,
    };
    const passwordHash = seed.password === TEST_PASSWORD ? await (testPasswordHash ??= hashPassword(TEST_PASSWORD, TEST_HASH_COST)) : undefined;
    const user = { ...seed, passwordHash, contactNumber: '639171234567', verified: true };
    return role === 'client'
      ? createClientAccount(database.db, clock, user, seed)
      : createUser(database.db, clock, { ...user, role });
  };

  return {
    url,
    db: database.db,
    dbKind: database.kind,
    clock,
    mailbox,
    config,
    logLines,
    deps,
    sendQueuedMail: () => outbox.flush(),
    anonymous: () => new HttpClient(url),
    createUser: createTestUser,
    async signedIn(role, overrides) {
      const user = await createTestUser(role, overrides);
      const session = await createSession(database.db, clock, { idleMinutes: config.sessionIdleMinutes, maxHours: config.sessionMaxHours }, user.id);
      const http = new HttpClient(url);
      http.setCookie('lab_session', session.token);
      return { user, http };
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await outbox.stop();
      await reads?.close();
      mailer.close();
      await mailbox.close();
      await database.drop();
    },
  };
}

export interface TestPortal {
  url: string;
  /** The stand-in build folder (index.html and assets/). */
  uiDir: string;
  close(): Promise<void>;
}

/**
 * The app of `deps` serving a stand-in for `npm run build:ui` on its own port: the page's shell
 * (ui/index.html) and the given files under assets/.
 */
export async function startPortal(deps: AppDeps, assets: Record<string, string | Buffer>): Promise<TestPortal> {
  const uiDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-ui-'));
  fs.copyFileSync(path.join(import.meta.dirname, '../../ui/index.html'), path.join(uiDir, 'index.html'));
  fs.mkdirSync(path.join(uiDir, 'assets'));
  for (const [name, content] of Object.entries(assets)) fs.writeFileSync(path.join(uiDir, 'assets', name), content);
  const server: Server = await new Promise((resolve) => {
    const s = createApp({ ...deps, uiDir }).listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    uiDir,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(uiDir, { recursive: true, force: true });
    },
  };
}
