// PostgreSQL with two roles (docs/deploy.md section 4): the owner of the tables runs the migrations,
// and the portal logs in as a role of its own that may read and write the lab's rows but not change
// the schema: it cannot ALTER a table, DROP the audit trail's triggers, or UPDATE, DELETE or TRUNCATE
// an audit entry, so the application cannot alter its own trail. The owner grants after every
// `labctl migrate latest`, so tables a release adds are covered too.
import { isPostgres, type Db } from './knex.js';

/** Tables the portal only reads and appends to: the audit trail, and specifications (a new version is a new row, issue 26). */
const APPEND_ONLY = ['audit_log', 'specifications'];
/** knex's bookkeeping of migrations: the portal reads it (readiness, doctor) but never writes it. */
const READ_ONLY = ['knex_migrations', 'knex_migrations_lock'];

/** Gives `appRole` the privileges the portal needs on the owner's current schema, and takes any other away. */
export async function grantAppRole(owner: Db, appRole: string): Promise<void> {
  const { rows } = (await owner.raw('select current_schema() as schema')) as { rows: Array<{ schema: string }> };
  const schema = rows[0].schema;
  const tables = (names: string[]) => names.map((name) => owner.raw('??', [`${schema}.${name}`]).toQuery()).join(', ');
  await owner.transaction(async (trx) => {
    await trx.raw('GRANT USAGE ON SCHEMA ?? TO ??', [schema, appRole]);
    await trx.raw('REVOKE ALL ON ALL TABLES IN SCHEMA ?? FROM ??', [schema, appRole]);
    await trx.raw('GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ?? TO ??', [schema, appRole]);
    await trx.raw(`REVOKE UPDATE, DELETE ON ${tables(APPEND_ONLY)} FROM ??`, [appRole]);
    await trx.raw(`REVOKE INSERT, UPDATE, DELETE ON ${tables(READ_ONLY)} FROM ??`, [appRole]);
    // Inserted ids come from the tables' sequences (nextval needs USAGE).
    await trx.raw('GRANT USAGE ON ALL SEQUENCES IN SCHEMA ?? TO ??', [schema, appRole]);
  });
}

/** Whether the role of `db` may apply migrations: always on SQLite; on PostgreSQL, only one that may create in the schema and take knex's migration lock (the owner, not the portal's role). */
export async function mayMigrate(db: Db): Promise<boolean> {
  if (!isPostgres(db)) return true;
  const { rows } = (await db.raw(
    "select has_schema_privilege(current_schema(), 'CREATE') and (to_regclass('knex_migrations_lock') is null or has_table_privilege('knex_migrations_lock', 'UPDATE')) as may",
  )) as { rows: Array<{ may: boolean }> };
  return rows[0].may;
}
