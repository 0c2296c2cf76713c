// Which statements the PostgreSQL client prepares (server/db/pgClient.ts): reads and writes, by a
// name that follows the text; not schema changes or transaction control; at most MAX_PREPARED texts.
import { describe, expect, it } from 'vitest';
import { MAX_PREPARED, statementName } from '../../server/db/pgClient.js';

describe('prepared statement names', () => {
  it('names reads and writes, the same text always by the same name and another text by another', () => {
    const select = statementName('select "id" from "requests" where "status" = $1');
    expect(select).toMatch(/^lab_/);
    expect(statementName('select "id" from "requests" where "status" = $1')).toBe(select);
    expect(statementName('  WITH x AS (select 1) select * from x')).toMatch(/^lab_/);
    for (const write of ['insert into "notes" ("body") values ($1)', 'update "notes" set "body" = $1', 'delete from "notes" where "id" = $1']) {
      expect(statementName(write)).toMatch(/^lab_/);
    }
    expect(statementName('select "id" from "requests" where "status" = $2')).not.toBe(select);
  });

  it('leaves schema changes and transaction control unnamed', () => {
    for (const sql of ['BEGIN;', 'COMMIT;', 'SAVEPOINT trx2;', 'create table "x" ("id" serial)', 'ANALYZE requests', 'selection is not a statement']) {
      expect(statementName(sql)).toBeUndefined();
    }
  });

  it('prepares at most MAX_PREPARED texts, and still names those it prepared', () => {
    const first = statementName('select 1 as "kept"');
    for (let i = 0; i < MAX_PREPARED; i += 1) statementName(`select ${i} as "filler"`);
    expect(statementName(`select 'one more' as "late"`)).toBeUndefined();
    expect(statementName('select 1 as "kept"')).toBe(first);
  });
});
