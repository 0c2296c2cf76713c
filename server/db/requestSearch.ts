// The lists' search (`q`: text anywhere in a request's control number, company or lot) from an index
// of substrings, so a search that finds a few requests among 50,000 does not read them all (a scan of
// the released list's 43,000 requests: 115 ms on SQLite). The searched text is one expression: the
// three columns lower-cased, joined by a line break (so a match never spans two of them), without
// hyphens, and the search text likewise: '2026-0012' and '20260012' find the same requests. (pg_trgm
// splits words at a hyphen, so '2026-00' would be looked up as '2026' and '00': 22,000 candidates at
// 50,000 requests, 31 ms; '202600' narrows them to the control numbers it is in.)
// - PostgreSQL: a trigram GIN index (pg_trgm) on that expression; the list's query repeats it, and
//   the planner chooses between the index and walking the list's own order (its statistics on the
//   expression, which the migration gathers, say how many requests a text finds).
// - SQLite: an FTS5 table with the trigram tokenizer (request_search, rowid = request id), kept by
//   triggers. The planner cannot weigh it against the list's order, so the service asks first how
//   many requests the text finds (at most SPARSE_HITS + 1): few, and the page reads those by id; many,
//   and the page walks its order, where matches come soon.
// Texts shorter than a trigram (3 characters) find too many requests for any index to help.
import type { Knex } from 'knex';
import { isPostgres } from './knex.js';

type Db = Knex | Knex.Transaction;

const NL = { pg: 'chr(10)', sqlite: 'char(10)' };
const withoutHyphens = (expression: string) => `replace(${expression}, '-', '')`;
const bare = (q: string) => q.replaceAll('-', '');
const searchedText = (db: Db, r: string) =>
  withoutHyphens(`lower(coalesce(${r}.control_number, '') || ${isPostgres(db) ? NL.pg : NL.sqlite} || ${r}.company_name || ${isPostgres(db) ? NL.pg : NL.sqlite} || coalesce(${r}.lot_batch_no, ''))`);

/** Up to this many matches, SQLite reads the page by id from what the search index found. */
export const SPARSE_HITS = 1000;

const MIN_INDEXED = 3;

/** `%text%` for LIKE (without hyphens), its own % _ and \ matched literally. */
const likeContaining = (text: string) => `%${bare(text).toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** `*text*` for GLOB (without hyphens), its own * ? and [ matched literally. */
const globContaining = (text: string) => `*${bare(text).toLowerCase().replace(/[*?[]/g, (c) => `[${c}]`)}*`;

/** Column by column, as before the index: a short text, or the many-matches plan on SQLite. */
function whereColumnsContain(query: Knex.QueryBuilder, r: string, q: string): void {
  const like = likeContaining(q);
  query.where((w) => {
    for (const column of ['control_number', 'company_name', 'lot_batch_no']) w.orWhereRaw(`${withoutHyphens(`lower(${r}.${column})`)} like ? escape '\\'`, [like]);
  });
}

/** Narrows `query` (over requests as `r`) to the requests whose control number, company or lot contains `q`, case-insensitively, hyphens ignored. */
export async function whereRequestSearched(db: Db, query: Knex.QueryBuilder, q: string, r = 'r'): Promise<void> {
  if (bare(q).length < MIN_INDEXED) return whereColumnsContain(query, r, q);
  if (isPostgres(db)) {
    query.whereRaw(`${searchedText(db, r)} like ? escape '\\'`, [likeContaining(q)]);
    return;
  }
  const glob = globContaining(q);
  const [{ n }] = await db.from(db('request_search').select(db.raw('1')).whereRaw('text glob ?', [glob]).limit(SPARSE_HITS + 1).as('hits')).count({ n: '*' });
  if (Number(n) > SPARSE_HITS) return whereColumnsContain(query, r, q);
  query.whereIn(`${r}.id`, db('request_search').select('rowid').whereRaw('text glob ?', [glob]));
}

const TRIGGERS = ['request_search_insert', 'request_search_update', 'request_search_delete'];

/** SQLite's search index: the FTS5 table and the shadow tables FTS5 keeps it in. */
export const REQUEST_SEARCH_TABLES = ['request_search', ...['config', 'content', 'data', 'docsize', 'idx'].map((shadow) => `request_search_${shadow}`)];

/** Creates the search index of the requests there are, kept by the database from then on. */
export async function createRequestSearch(knex: Knex): Promise<void> {
  if (isPostgres(knex)) {
    // In public, not the migrating schema: dropping a schema must not take the extension from another's index.
    const schema = await trigramSchema(knex);
    await knex.raw(`CREATE INDEX requests_search_index ON requests USING gin ((${searchedText(knex, 'requests')}) ${schema}.gin_trgm_ops)`);
    // The planner's statistics of the indexed expression (how many requests a text finds), which only
    // ANALYZE gathers: without them it reads a common text from the index and sorts thousands of rows.
    await knex.raw('ANALYZE requests');
    return;
  }
  // The text is lower-cased already; case_sensitive lets GLOB (whose [ ] escapes LIKE lacks) use the index.
  await knex.raw("CREATE VIRTUAL TABLE request_search USING fts5(text, tokenize = 'trigram case_sensitive 1')");
  const text = searchedText(knex, 'NEW');
  await knex.raw(`CREATE TRIGGER request_search_insert AFTER INSERT ON requests BEGIN
    INSERT INTO request_search (rowid, text) VALUES (NEW.id, ${text});
  END`);
  await knex.raw(`CREATE TRIGGER request_search_update AFTER UPDATE OF control_number, company_name, lot_batch_no ON requests BEGIN
    UPDATE request_search SET text = ${text} WHERE rowid = NEW.id;
  END`);
  await knex.raw(`CREATE TRIGGER request_search_delete AFTER DELETE ON requests BEGIN
    DELETE FROM request_search WHERE rowid = OLD.id;
  END`);
  await knex.raw(`INSERT INTO request_search (rowid, text) SELECT id, ${searchedText(knex, 'requests')} FROM requests`);
}

export async function dropRequestSearch(knex: Knex): Promise<void> {
  if (isPostgres(knex)) {
    await knex.raw('DROP INDEX requests_search_index');
    return;
  }
  for (const name of TRIGGERS) await knex.raw('DROP TRIGGER ??', [name]);
  await knex.raw('DROP TABLE request_search');
}

/** The schema holding pg_trgm, installed in public when the database has it nowhere. */
async function trigramSchema(knex: Knex): Promise<string> {
  const installed = async (): Promise<string | undefined> =>
    (await knex.raw("SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'")).rows[0]?.schema;
  const found = await installed();
  if (found) return found;
  // Two migrations at once (tests, instances) may both try; a savepoint keeps the loser's transaction usable.
  await knex.raw('SAVEPOINT trigram').then(() => knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public'))
    .then(() => knex.raw('RELEASE SAVEPOINT trigram'), () => knex.raw('ROLLBACK TO SAVEPOINT trigram'));
  return (await installed()) ?? 'public';
}
