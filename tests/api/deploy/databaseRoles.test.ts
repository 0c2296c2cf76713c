// docs/deploy.md section 4: on PostgreSQL the tables belong to an owner role that runs the
// migrations (MIGRATION_DATABASE_URL), and the portal logs in as a role of its own (DATABASE_URL)
// that cannot alter its own trail: no ALTER TABLE, no DROP TRIGGER, no UPDATE, DELETE or TRUNCATE of
// audit_log, while the portal works as that role. The roles get unique names and are dropped after,
// since the test database is shared by parallel suites. The section's SQL is also replayed as the
// document gives it, with psql, under scratch names (a database and two roles of this run's own), and
// `labctl migrate latest` run as it says. On SQLite the trail's triggers are what protects it
// (README, Architecture), and MIGRATION_DATABASE_URL is refused.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import knexFactory from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config.js';
import { createDb, type Db } from '../../../server/db/knex.js';
import { migrateLatest } from '../../../server/db/migrate.js';
import { buildSubmitPayload } from '../../../server/domain/requestPayload.js';
import { labctl } from '../../cli/labctl.js';
import { databaseUrl } from '../../helpers/serveProcess.js';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../../helpers/testApp.js';
import { createTestDatabase, databaseKind, type TestDatabase } from '../../helpers/testDatabase.js';
import { logIn } from '../accounts/support.js';

/** The data directories the runs of labctl get, removed once the file's tests are done. */
const scratchDirs: string[] = [];
const scratchDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-roles-'));
  scratchDirs.push(dir);
  return dir;
};
afterAll(() => scratchDirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** What a role's statement answers: 'ok' or PostgreSQL's message. */
const outcome = (query: Promise<unknown>) => query.then(() => 'ok', (err: Error) => err.message);

const SUBMISSION = buildSubmitPayload(
  {
    representativeName: 'Ana Cruz', contactNumber: '639171234567', emailAddress: '', companyName: '', clientClassification: 'Importer',
    ltoNumber: 'LTO-1', testingPurpose: 'Local_Trade', otherTestingPurpose: '', sampleCategory: 'Walk-in', lotBatchNo: '', sampleSource: '',
    productionDate: '', expiryDate: '', samplingDate: '', samplerName: '', samples: ['Beef loin'], tests: ['eColi'], gramPositiveAst: '', gramNegativeAst: '',
  },
  new Date('2026-03-16T09:00:00.000Z'),
);

/**
 * The ```sql blocks of docs/deploy.md section 4 as written, but with the roles `lab_owner` and
 * `lab_app` and the database `lab` renamed `<name>_<tag>`.
 */
function sectionFourSql(tag: string): string[] {
  const section = /^## 4\. PostgreSQL\n([\s\S]*?)^## 5\./m.exec(fs.readFileSync('docs/deploy.md', 'utf8'))![1];
  return [...section.matchAll(/^```sql\n([\s\S]*?)^```$/gm)].map((m) => m[1].replace(/\blab(_owner|_app)?\b/g, (name) => `${name}_${tag}`));
}

/** Runs `sql` with psql as the user and database of `url`, stopping at the first error. */
const psql = (url: string, sql: string) => execa('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', url], { input: sql });

if (databaseKind() === 'postgres') {
  describe('docs/deploy.md section 4 followed literally (postgres)', () => {
    const tag = crypto.randomBytes(4).toString('hex');
    const [owner, app, database] = ['lab_owner', 'lab_app', 'lab'].map((name) => `${name}_${tag}`);
    const [createRoles, grants] = sectionFourSql(tag);
    const superuserUrl = process.env.TEST_DATABASE_URL!;
    /** postgres:// of the scratch database as `role` with `password`, as DATABASE_URL would name it. */
    const urlAs = (role: string, password: string) => {
      const url = new URL(superuserUrl);
      Object.assign(url, { username: role, password, pathname: `/${database}`, search: '' });
      return url.toString();
    };
    const appUrl = urlAs(app, 'secret');
    const ownerUrl = urlAs(owner, 'owner-secret');
    let superuser: ReturnType<typeof knexFactory>;
    let scratch: ReturnType<typeof knexFactory>;

    /** What `role` may do in the scratch database's schema public: [object, privilege] pairs, sorted. */
    async function privilegesOf(role: string): Promise<string[][]> {
      const { rows } = await scratch.raw(
        `SELECT c.relname AS object, a.privilege_type AS privilege FROM pg_class c, aclexplode(c.relacl) a
           WHERE c.relnamespace = 'public'::regnamespace AND a.grantee = ?::regrole
         UNION ALL
         SELECT 'schema public', a.privilege_type FROM pg_namespace n, aclexplode(n.nspacl) a
           WHERE n.nspname = 'public' AND a.grantee = ?::regrole
         ORDER BY 1, 2`,
        [role, role],
      );
      return (rows as Array<{ object: string; privilege: string }>).map((r) => [r.object, r.privilege]);
    }

    beforeAll(async () => {
      superuser = knexFactory({ client: 'pg', connection: superuserUrl, pool: { min: 0, max: 1 } });
      await psql(superuserUrl, createRoles);
      scratch = knexFactory({ client: 'pg', connection: urlAs(new URL(superuserUrl).username, ''), pool: { min: 0, max: 1 } });
    });
    afterAll(async () => {
      await scratch?.destroy();
      await superuser?.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [database]);
      for (const role of [app, owner]) await superuser?.raw('DROP ROLE IF EXISTS ??', [role]);
      await superuser?.destroy();
    });

    it('creates the roles and the database, and `labctl migrate latest` as it says grants what its second block shows', async () => {
      expect(createRoles).toContain(`CREATE DATABASE ${database} OWNER ${owner};\n\\c ${database}\n`);
      const dataDir = scratchDir();
      const migrated = await labctl(['migrate', 'latest'], dataDir, { env: { DATABASE_URL: appUrl, MIGRATION_DATABASE_URL: ownerUrl } });
      expect([migrated.exitCode, migrated.stderr]).toEqual([0, expect.stringMatching(/applied 001_initial, .*027_wider_windows$/)]);
      // Migration 017 installed pg_trgm as the database's owner, not a superuser.
      expect((await scratch.raw("SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'")).rows).toEqual([{ nspname: 'public' }]);
      const granted = await privilegesOf(app);
      const on = (object: string) => granted.filter(([o]) => o === object).map(([, privilege]) => privilege);
      expect({ schema: on('schema public'), requests: on('requests'), audit: on('audit_log'), migrations: on('knex_migrations'), lock: on('knex_migrations_lock') }).toEqual({
        schema: ['USAGE'],
        requests: ['DELETE', 'INSERT', 'SELECT', 'UPDATE'],
        audit: ['INSERT', 'SELECT'],
        migrations: ['SELECT'],
        lock: ['SELECT'],
      });
      // The document's grants, run by the owner after the migrations, change nothing: they are what labctl did.
      await psql(ownerUrl, grants);
      expect(await privilegesOf(app)).toEqual(granted);
    });

    it('lets the portal work as lab_app, which can neither create a table nor alter the audit trail', async () => {
      const listed = await labctl(['requests', 'list'], scratchDir(), { env: { DATABASE_URL: appUrl } });
      expect([listed.exitCode, listed.stderr]).toEqual([0, '']);
      const appDb = knexFactory({ client: 'pg', connection: appUrl, pool: { min: 0, max: 1 } });
      try {
        await appDb('audit_log').insert({ action: 'test.entry', at: '2026-03-16T09:00:00.000Z' });
        expect({
          create: await outcome(appDb.raw('CREATE TABLE forged (id int)')),
          update: await outcome(appDb('audit_log').update({ action: 'forged' })),
          alter: await outcome(appDb.raw('ALTER TABLE audit_log DISABLE TRIGGER ALL')),
        }).toEqual({
          create: expect.stringMatching(/permission denied for schema public/),
          update: expect.stringMatching(/permission denied for table audit_log/),
          alter: expect.stringMatching(/must be owner of table audit_log/),
        });
      } finally {
        await appDb.destroy();
      }
    });
  });

  describe('the portal as a role of its own that cannot alter its trail (postgres)', () => {
    const tag = crypto.randomBytes(4).toString('hex');
    const ownerRole = `lab_owner_${tag}`;
    const appRole = `lab_app_${tag}`;
    let superuser: ReturnType<typeof knexFactory>;
    let database: TestDatabase;
    let schema: string;
    let appDb: Db;
    let app: TestApp;
    /** postgres:// of the test database as `role`, in the test's schema. */
    let urlAs: (role: string) => string;

    beforeAll(async () => {
      database = await createTestDatabase();
      const settings = database.settings as { connectionString: string; searchPath: string };
      schema = settings.searchPath;
      superuser = knexFactory({ client: 'pg', connection: settings.connectionString, pool: { min: 0, max: 1 } });
      await superuser.raw('CREATE ROLE ?? LOGIN', [ownerRole]);
      await superuser.raw('CREATE ROLE ?? LOGIN', [appRole]);
      await superuser.raw('ALTER SCHEMA ?? OWNER TO ??', [schema, ownerRole]);
      urlAs = (role) => {
        const url = new URL(databaseUrl(database));
        url.username = role;
        return url.toString();
      };
      const dataDir = scratchDir();
      const migrated = await labctl(['migrate', 'latest'], dataDir, { env: { DATABASE_URL: urlAs(appRole), MIGRATION_DATABASE_URL: urlAs(ownerRole) } });
      expect([migrated.exitCode, migrated.stderr]).toEqual([0, expect.stringMatching(/applied 001_initial, .*027_wider_windows$/)]);
      appDb = createDb({ client: 'pg', connectionString: urlAs(appRole), searchPath: schema });
      app = await startTestApp({}, { database: { ...database, db: appDb, drop: () => appDb.destroy() } });
    });
    afterAll(async () => {
      await app?.close();
      // The schema (and with it every grant) goes first, then the roles that owned and used it.
      await database?.drop();
      for (const role of [appRole, ownerRole]) await superuser?.raw('DROP ROLE IF EXISTS ??', [role]);
      await superuser?.destroy();
    });

    it('owns nothing: its ALTER TABLE, DROP TRIGGER, UPDATE, DELETE and TRUNCATE of the audit trail fail', async () => {
      await app.db('audit_log').insert({ action: 'test.entry', at: '2026-03-16T09:00:00.000Z' });
      const trigger = (await superuser.raw("SELECT tgname FROM pg_trigger WHERE tgrelid = ?::regclass AND NOT tgisinternal LIMIT 1", [`${schema}.audit_log`])).rows[0].tgname;
      expect({
        alter: await outcome(appDb.raw('ALTER TABLE audit_log ADD COLUMN forged text')),
        dropTrigger: await outcome(appDb.raw('DROP TRIGGER ?? ON audit_log', [trigger])),
        disableTrigger: await outcome(appDb.raw('ALTER TABLE audit_log DISABLE TRIGGER ALL')),
        update: await outcome(appDb('audit_log').update({ action: 'forged' })),
        delete: await outcome(appDb('audit_log').delete()),
        truncate: await outcome(appDb.raw('TRUNCATE audit_log')),
        dropTable: await outcome(appDb.raw('DROP TABLE audit_log')),
        migrationsTable: await outcome(appDb('knex_migrations').delete()),
      }).toEqual({
        alter: expect.stringMatching(/must be owner of table audit_log/),
        dropTrigger: expect.stringMatching(/must be owner of (table|relation) audit_log/),
        disableTrigger: expect.stringMatching(/must be owner of table audit_log/),
        update: expect.stringMatching(/permission denied for table audit_log/),
        delete: expect.stringMatching(/permission denied for table audit_log/),
        truncate: expect.stringMatching(/permission denied for table audit_log/),
        dropTable: expect.stringMatching(/must be owner of table audit_log/),
        migrationsTable: expect.stringMatching(/permission denied for table knex_migrations/),
      });
      expect(await appDb('audit_log').where({ action: 'test.entry' }).count({ n: '*' })).toEqual([{ n: '1' }]);
    });

    it('serves the portal as that role: a login with its code, then a submission', async () => {
      const client = await app.createUser('client');
      const http = app.anonymous();
      const verified = await logIn(app, http, client.email, client.email, TEST_PASSWORD);
      expect(verified.status).toBe(200);
      const submitted = await http.post(`/requests/submitrequest/${client.id}`, SUBMISSION);
      expect(submitted.status).toBe(201);
      const stored = await app.db('requests').where({ client_user_id: client.id }).first('status');
      expect(stored).toEqual({ status: 'PENDING_REVIEW' });
      expect(await app.db('audit_log').where({ actor_user_id: client.id }).pluck('action')).toContain('request.submit');
    });

    it('cannot apply a pending migration itself: a command run as that role stops and says how', async () => {
      await superuser.withSchema(schema).table('knex_migrations').where({ name: '016_audit_trail' }).delete();
      const res = await labctl(['requests', 'list'], scratchDir(), { env: { DATABASE_URL: urlAs(appRole) } });
      expect([res.exitCode, res.stderr]).toEqual([1, 'Error: Migrations are pending (016_audit_trail) and the database role of DATABASE_URL may not apply them: run `labctl migrate latest` with MIGRATION_DATABASE_URL set to the tables\' owner (docs/deploy.md section 4).']);
    });
  });
} else {
  describe('the audit trail on SQLite (sqlite)', () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase();
      await migrateLatest(database.db);
    });
    afterAll(() => database?.drop());

    it('refuses to change or remove an entry, by triggers in the file itself', async () => {
      await database.db('audit_log').insert({ action: 'test.entry', at: '2026-03-16T09:00:00.000Z' });
      expect(await outcome(database.db('audit_log').update({ action: 'forged' }))).toMatch(/audit_log is append-only: its rows cannot be changed or deleted/);
      expect(await outcome(database.db('audit_log').delete())).toMatch(/audit_log is append-only: its rows cannot be changed or deleted/);
    });

    it('refuses MIGRATION_DATABASE_URL, which only PostgreSQL has a use for', () => {
      expect(() => loadConfig({ MIGRATION_DATABASE_URL: 'postgres://owner@db/lab' })).toThrow(ConfigError);
    });
  });
}
