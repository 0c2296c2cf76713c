// SQL that SQLite and PostgreSQL spell differently, and the statement shapes every service needs, in
// one place: no service asks which database it runs on.
import type { Knex } from 'knex';
import { isPostgres } from './knex.js';

type Conn = Knex | Knex.Transaction;

/**
 * The values of `column` (or of an expression) in a group joined with commas (in no particular
 * order), e.g. a request's test codes.
 */
export function joinedValues(db: Conn, column: string | Knex.Raw): Knex.Raw {
  const value = typeof column === 'string' ? '??' : '?';
  return db.raw(isPostgres(db as Knex) ? `string_agg(${value}, ',')` : `group_concat(${value}, ',')`, [column]);
}

/**
 * A number from `returning(column)`: PostgreSQL (and SQLite since knex 1) answer a row object, older
 * drivers the bare value.
 */
export function returnedNumber(row: unknown, column: string): number {
  return Number(row !== null && typeof row === 'object' ? (row as Record<string, unknown>)[column] : row);
}

/** Inserts one row and answers its new id. */
export async function insertReturningId(db: Conn, table: string, row: object): Promise<number> {
  const [inserted] = await db(table).insert(row).returning('id');
  return returnedNumber(inserted, 'id');
}

/**
 * Most values bound in one statement by a chunked whereIn or a multi-row insert: well under SQLite's
 * limit of bound parameters (32766) and PostgreSQL's (65535) even with several columns per value.
 */
export const CHUNK_SIZE = 500;

/**
 * Runs `work` on consecutive slices of `items` (at most `size` each, in order) and joins what each
 * answers: for whereIn lists and inserts of any length.
 */
export async function inChunks<T, R>(
  items: readonly T[],
  work: (chunk: T[]) => PromiseLike<readonly R[] | void>,
  size = CHUNK_SIZE,
): Promise<R[]> {
  const answers: R[] = [];
  for (const chunk of slices(items, size)) answers.push(...((await work(chunk)) ?? []));
  return answers;
}

/** `items` in consecutive slices of at most `size` (default CHUNK_SIZE), in order: a statement each. */
export function slices<T>(items: readonly T[], size = CHUNK_SIZE): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Inserts `rows` in chunks and answers their new ids, in order. */
export async function insertReturningIds(db: Conn, table: string, rows: readonly object[], size = CHUNK_SIZE): Promise<number[]> {
  return inChunks(rows, async (chunk) => (await db(table).insert(chunk).returning('id')).map((r: unknown) => returnedNumber(r, 'id')), size);
}

/**
 * Locks the rows `query` reads (of the `tables` named, every table it reads when none is) until the
 * transaction ends (FOR UPDATE on PostgreSQL); SQLite needs no lock, as it serialises writers.
 */
export function lockForUpdate<Q extends Knex.QueryBuilder>(db: Conn, query: Q, ...tables: string[]): Q {
  return isPostgres(db as Knex) ? (query.forUpdate(...tables) as Q) : query;
}

/**
 * Statements built but not yet run (knex runs a query when it is awaited): several can then be sent
 * as one (runTogether).
 */
export type Statement = Knex.QueryBuilder | Knex.Raw;

/** Runs `statements` one after the other. */
async function runInOrder(statements: readonly Statement[]): Promise<unknown> {
  let last: unknown;
  for (const statement of statements) last = await statement;
  return last;
}

/**
 * Runs `statements`, none of which reads what another of them writes, and answers the rows the last
 * one returns (its RETURNING). On PostgreSQL they go as one statement, all but the last as
 * data-modifying WITH clauses: at the day's rates a round trip costs a server more CPU than the
 * statement itself (docs/labctl.md, Benchmark: three inserts cost the client 1.5-2.2 ms as a
 * transaction of their own and 0.6-0.8 ms as one statement). Each runs to completion, and triggers
 * and foreign keys, checked at the end of the statement, see the rows of all of them. SQLite, in
 * this process, runs them in order. The text of the whole is new whenever one part's is, so a large
 * statement that repeats (prepared once, planned once: pgClient.ts) is better run on its own: the
 * import's 5,000-row result update joined to the rest made the import 6-15 % slower.
 * Given `db` itself rather than a transaction, they are all or nothing: one statement is, in
 * PostgreSQL's autocommit (no BEGIN and COMMIT, two round trips fewer); otherwise they run in a
 * transaction of their own.
 */
export async function runTogether<Row = Record<string, unknown>>(db: Conn, statements: readonly Statement[]): Promise<Row[]> {
  const compiled = isPostgres(db as Knex) && statements.length > 1 ? statements.map((s) => s.toSQL() as Knex.Sql) : [];
  // A statement with a WITH of its own cannot be one of the clauses (PostgreSQL allows a
  // data-modifying WITH only at the top level).
  if (compiled.length === 0 || compiled.some((c) => /^\s*with\b/i.test(c.sql))) {
    const last = await (inOwnTransaction(db, statements) ?? runInOrder(statements));
    return Array.isArray(last) ? (last as Row[]) : [];
  }
  const clauses = compiled.slice(0, -1).map((c, i) => `w${i} as (${c.sql})`);
  const result = await db.raw(`with ${clauses.join(', ')} ${compiled[compiled.length - 1].sql}`, compiled.flatMap((c) => c.bindings));
  return result.rows as Row[];
}

/**
 * `statements` run in order in a transaction of their own, when `db` is not one already and there is
 * more than one: each is compiled and sent on the transaction's connection (a statement built on
 * `db` would run outside it).
 */
function inOwnTransaction(db: Conn, statements: readonly Statement[]): Promise<unknown> | undefined {
  if ((db as Knex.Transaction).isTransaction || statements.length <= 1) return undefined;
  return (db as Knex).transaction(async (trx) => {
    const results = await runInOrder(statements.map((s) => {
      const { sql, bindings } = s.toSQL() as Knex.Sql;
      return trx.raw(sql, bindings);
    }));
    // A raw statement answers PostgreSQL's result object; its rows are what a built one answers.
    return (results as { rows?: unknown[] } | undefined)?.rows ?? results;
  });
}

/**
 * Where the database draws a table's ids from a sequence (PostgreSQL), a column `drawn_id` for a
 * read to draw the next id of `table` with, so the row can then be inserted with the rows that need
 * its id in one statement (runTogether); undefined on SQLite, which gives a row its id with its insert.
 */
export function drawnId(db: Conn, table: string): Knex.Raw | undefined {
  return isPostgres(db as Knex) ? db.raw("nextval(pg_get_serial_sequence(?, 'id')) as drawn_id", [table]) : undefined;
}

/**
 * The inserts of `rows` (each the values of `columns`, in order): one multi-row VALUES statement per
 * CHUNK_SIZE rows, every value bound, for rows carrying long texts (audit details), which a
 * JSON-bound insert would encode, and the database decode, a second time.
 */
export function valuesInserts(db: Conn, table: string, columns: readonly string[], rows: readonly Knex.Value[][]): Knex.Raw[] {
  for (const name of columns) if (!PLAIN_NAME.test(name)) throw new Error(`Not a plain SQL name: ${name}`);
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  return slices(rows).map((chunk) =>
    db.raw(`insert into ?? (${columns.map((n) => `"${n}"`).join(', ')}) values ${chunk.map(() => tuple).join(', ')}`, [table, ...chunk.flat()]),
  );
}

/**
 * The rows `query` selects, as arrays of the values of `columns` (names it selects), aggregated by
 * the database into one JSON array: for reads of many thousand rows, which the SQLite driver turns
 * into objects several times slower than JSON.parse reads the same values.
 */
export async function selectArrays(db: Conn, query: Knex.QueryBuilder, columns: readonly string[]): Promise<unknown[][]> {
  for (const name of columns) if (!PLAIN_NAME.test(name)) throw new Error(`Not a plain SQL name: ${name}`);
  const values = columns.map((n) => `q."${n}"`).join(', ');
  const aggregate = isPostgres(db as Knex) ? `coalesce(json_agg(json_build_array(${values})), '[]'::json)` : `json_group_array(json_array(${values}))`;
  const [row] = await db.select(db.raw(`${aggregate} as rows`)).from(query.as('q'));
  // PostgreSQL's driver parses json columns itself; SQLite answers the text.
  return typeof row.rows === 'string' ? JSON.parse(row.rows) : row.rows;
}

/**
 * Inserts of `rows` (each into its table) whose values hold a text only known inside the statement:
 * `mark` in them is replaced by `column` of the WITH clause `source`, one row per row of `source`.
 * PostgreSQL only (a data-modifying WITH): each row goes bound as JSON with the mark, and
 * json_populate_record gives its columns their table's types.
 */
export function insertsFilledFrom(db: Conn, source: string, column: string, mark: string, rows: ReadonlyArray<{ table: string; row: Record<string, unknown> }>): Knex.Raw[] {
  return rows.map(({ table, row }) => {
    const names = Object.keys(row);
    for (const name of [source, column, table, ...names]) if (!PLAIN_NAME.test(name)) throw new Error(`Not a plain SQL name: ${name}`);
    return db.raw(
      `insert into "${table}" (${names.map((n) => `"${n}"`).join(', ')}) select ${names.map((n) => `r."${n}"`).join(', ')} ` +
        `from "${source}" s, json_populate_record(null::"${table}", replace(?, ?, s."${column}")::json) r`,
      [JSON.stringify(row), mark],
    );
  });
}

/** Column types of rows bound as JSON (jsonRowsSource). */
export type JsonColumns = Readonly<Record<string, 'integer' | 'text' | 'double precision'>>;

const PLAIN_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * Many rows as one bound JSON array, read as a table called `alias` with `columns`: the source of an
 * INSERT ... SELECT or an UPDATE ... FROM. One parameter instead of one per value, so a statement
 * may carry thousands of rows and building it costs nothing per value; the database unpacks the JSON
 * (json_each on SQLite, json_to_recordset on PostgreSQL: plain json, which it only checks where jsonb
 * is built as a tree first). Bind rowsAsJson(rows) to its `?`.
 */
export function jsonRowsSource(db: Conn, alias: string, columns: JsonColumns): string {
  const names = Object.keys(columns);
  // Names are spliced into the SQL: only the code's own plain identifiers.
  for (const name of [alias, ...names]) if (!PLAIN_NAME.test(name)) throw new Error(`Not a plain SQL name: ${name}`);
  if (isPostgres(db as Knex)) {
    return `json_to_recordset(?::json) as ${alias}(${names.map((n) => `"${n}" ${columns[n]}`).join(', ')})`;
  }
  return `(select ${names.map((n) => `json_extract(j.value, '$.${n}') as "${n}"`).join(', ')} from json_each(?) as j) as ${alias}`;
}

/**
 * The JSON of rows for jsonRowsSource, without the keys whose value is null: both engines read a
 * missing key as NULL, and a row of results is mostly empty columns (5,000 of them: 2.3 MB, now
 * 1.1 MB; PostgreSQL read them in 14 ms instead of 30).
 */
const rowsAsJson = (rows: readonly object[]) => JSON.stringify(rows, (_key, value: unknown) => (value === null ? undefined : value));

/** Rows a statement built on jsonRowsSource carries: far fewer values than a per-value statement would bind. */
export const JSON_ROWS_CHUNK = 5000;

/** The inserts of `rows` (objects with exactly the keys of `columns`): one JSON-bound statement per 5,000. */
export function jsonRowsInserts(db: Conn, table: string, columns: JsonColumns, rows: readonly object[]): Knex.Raw[] {
  const names = Object.keys(columns).map((n) => `"${n}"`).join(', ');
  return slices(rows, JSON_ROWS_CHUNK).map((chunk) => db.raw(`insert into ?? (${names}) select ${names} from ${jsonRowsSource(db, 'v', columns)}`, [table, rowsAsJson(chunk)]));
}

/**
 * The upserts of `rows` (objects with exactly the keys of `columns`) on the unique key `keys`: a row
 * whose key is stored replaces the stored values. One JSON-bound statement per 5,000.
 */
export function jsonRowsUpserts(db: Conn, table: string, keys: readonly string[], columns: JsonColumns, rows: readonly object[]): Knex.Raw[] {
  for (const name of keys) if (!PLAIN_NAME.test(name) || !(name in columns)) throw new Error(`Not a key of the columns: ${name}`);
  const names = Object.keys(columns).map((n) => `"${n}"`).join(', ');
  const set = Object.keys(columns).filter((n) => !keys.includes(n)).map((n) => `"${n}" = excluded."${n}"`).join(', ');
  // `where true`: SQLite reads ON CONFLICT after a SELECT without WHERE as a join's ON.
  const conflict = `on conflict (${keys.map((n) => `"${n}"`).join(', ')}) do update set ${set}`;
  return slices(rows, JSON_ROWS_CHUNK).map((chunk) => db.raw(`insert into ?? (${names}) select ${names} from ${jsonRowsSource(db, 'v', columns)} where true ${conflict}`, [table, rowsAsJson(chunk)]));
}

/** Inserts `rows` (objects with exactly the keys of `columns`), a JSON-bound statement per 5,000. */
export async function insertJsonRows(db: Conn, table: string, columns: JsonColumns, rows: readonly object[]): Promise<void> {
  await runInOrder(jsonRowsInserts(db, table, columns, rows));
}

/**
 * The updates setting `columns` of the rows of `table` matching each of `rows` on the `keys` columns
 * (a unique key): one JSON-bound UPDATE ... FROM per 5,000 rows.
 */
export function jsonRowsUpdates(db: Conn, table: string, keys: JsonColumns, columns: JsonColumns, rows: readonly object[]): Knex.Raw[] {
  const set = Object.keys(columns).map((n) => `"${n}" = v."${n}"`).join(', ');
  const match = Object.keys(keys).map((n) => `??."${n}" = v."${n}"`).join(' and ');
  return slices(rows, JSON_ROWS_CHUNK).map((chunk) =>
    db.raw(`update ?? set ${set} from ${jsonRowsSource(db, 'v', { ...keys, ...columns })} where ${match}`, [table, rowsAsJson(chunk), ...Object.keys(keys).map(() => table)]),
  );
}

/** Sets `columns` of the rows of `table` matching each of `rows` on the `keys` columns, a JSON-bound statement per 5,000. */
export async function updateJsonRows(db: Conn, table: string, keys: JsonColumns, columns: JsonColumns, rows: readonly object[]): Promise<void> {
  await runInOrder(jsonRowsUpdates(db, table, keys, columns, rows));
}
