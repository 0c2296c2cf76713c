// Which statements the PostgreSQL client prepares (server/db/pgClient.ts): reads and writes from their
// second run, by a name that follows the text; never schema changes or transaction control; at most
// MAX_PREPARED texts per database handle.
import { describe, expect, it } from 'vitest';
import { MAX_PREPARED, newStatementBudget, statementName } from '../../server/db/pgClient.js';

const twice = (budget: ReturnType<typeof newStatementBudget>, sql: string) => (statementName(budget, sql), statementName(budget, sql));

describe('prepared statement names', () => {
  it('names reads and writes from their second run, the same text always by the same name and another text by another', () => {
    const budget = newStatementBudget();
    const text = 'select "id" from "requests" where "status" = $1';
    expect(statementName(budget, text)).toBeUndefined();
    const name = statementName(budget, text);
    expect(name).toMatch(/^lab_/);
    expect(statementName(budget, text)).toBe(name);
    expect(twice(budget, '  WITH x AS (select 1) select * from x')).toMatch(/^lab_/);
    for (const write of ['insert into "notes" ("body") values ($1)', 'update "notes" set "body" = $1', 'delete from "notes" where "id" = $1']) {
      expect(twice(budget, write)).toMatch(/^lab_/);
    }
    expect(twice(budget, 'select "id" from "requests" where "status" = $2')).not.toBe(name);
    // Another handle prepares on its own connections, by the same name.
    expect(twice(newStatementBudget(), text)).toBe(name);
  });

  it('leaves schema changes and transaction control unnamed', () => {
    const budget = newStatementBudget();
    for (const sql of ['BEGIN;', 'COMMIT;', 'SAVEPOINT trx2;', 'create table "x" ("id" serial)', 'ANALYZE requests', 'selection is not a statement']) {
      expect(twice(budget, sql)).toBeUndefined();
    }
  });

  it('prepares at most MAX_PREPARED texts a handle, and still names those it prepared', () => {
    const budget = newStatementBudget();
    const first = twice(budget, 'select 1 as "kept"');
    for (let i = 0; i < MAX_PREPARED; i += 1) twice(budget, `select ${i} as "filler"`);
    expect(twice(budget, `select 'one more' as "late"`)).toBeUndefined();
    expect(statementName(budget, 'select 1 as "kept"')).toBe(first);
    expect(budget.names.size).toBe(MAX_PREPARED);
  });
});
