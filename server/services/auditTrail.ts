// Reading the audit log (issue 15): the trail viewer for staff and admins, filtered and paged, and the
// rows of one request for its timeline. There is deliberately no write here beyond services/audit.ts's
// append: the log is never updated or deleted.
import type { Knex } from 'knex';
import { countsByAction } from '../db/actionCounts.js';
import { actionMatches, auditCsvHeader, auditCsvRows, dayAfter, requestFilterOf, userFilterOf, type AuditFilter } from '../domain/auditTrail.js';
import { QUEUE_EXPORT_CHUNK } from '../domain/queue.js';
import type { AuditRecord } from '../domain/timeline.js';
import { lengthTold, sliced, type Page, type PageRequest } from './requests/lists.js';

type Db = Knex | Knex.Transaction;

const NEWEST_FIRST = [{ column: 'a.at', order: 'desc' as const }, { column: 'a.id', order: 'desc' as const }];

const COLUMNS = [
  'a.id', 'a.at', 'a.actor_user_id', 'a.action', 'a.request_id', 'a.details', 'a.ip',
  'u.first_name', 'u.last_name', 'u.role', 'r.control_number',
];

interface AuditColumns {
  id: number;
  at: string;
  actor_user_id: number | null;
  action: string;
  request_id: number | null;
  details: string | null;
  ip: string | null;
  first_name: string | null;
  last_name: string | null;
  role: string | null;
  control_number: string | null;
}

function parseDetails(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function toRecord(row: AuditColumns): AuditRecord {
  return {
    id: Number(row.id),
    at: row.at,
    actorUserId: row.actor_user_id === null ? null : Number(row.actor_user_id),
    actorName: row.first_name === null ? null : `${row.first_name} ${row.last_name}`,
    actorRole: row.role,
    action: row.action,
    requestId: row.request_id === null ? null : Number(row.request_id),
    controlNumber: row.control_number,
    details: parseDetails(row.details),
    ip: row.ip,
  };
}

/** audit_log as `a` with its actor (`u`) and request (`r`). */
function auditQuery(db: Db): Knex.QueryBuilder {
  return db('audit_log as a').leftJoin('users as u', 'u.id', 'a.actor_user_id').leftJoin('requests as r', 'r.id', 'a.request_id');
}

/** Every audit entry of one request, in the order written. */
export async function auditOfRequest(db: Db, requestId: number): Promise<AuditRecord[]> {
  const rows: AuditColumns[] = await auditQuery(db).where('a.request_id', requestId).orderBy([{ column: 'a.at' }, { column: 'a.id' }]).select(COLUMNS);
  return rows.map(toRecord);
}

/**
 * The filter in audit_log's own columns, each answered by an index of audit_log: a user named by
 * username or e-mail, and a request by control number, become ids; an action (or family) the actions
 * of the trail it names, so an exact action is one range of the (action, at, id) index and a family a few.
 */
interface Where {
  actorIds?: number[];
  requestIds?: number[];
  actions?: string[];
  /** Bounds of `at`: from (inclusive) and before (exclusive). */
  from?: string;
  before?: string;
}

async function whereOf(db: Db, filter: AuditFilter, counts: () => Promise<Map<string, number>>): Promise<Where> {
  const where: Where = {};
  if (filter.user) {
    const user = userFilterOf(filter.user);
    where.actorIds = 'userId' in user ? [user.userId] : (await db('users').where('email', user.name).orWhere('username_lower', user.name).pluck('id')).map(Number);
  }
  if (filter.request) {
    const request = requestFilterOf(filter.request);
    where.requestIds = 'requestId' in request ? [request.requestId] : (await db('requests').where('control_number', request.controlNumber).pluck('id')).map(Number);
  }
  if (filter.action) where.actions = [...(await counts()).keys()].filter((action) => actionMatches(filter.action!, action));
  if (filter.since) where.from = `${filter.since}T00:00:00.000Z`;
  if (filter.until) where.before = dayAfter(filter.until);
  return where;
}

function matching(query: Knex.QueryBuilder, where: Where): Knex.QueryBuilder {
  if (where.actorIds) query.whereIn('a.actor_user_id', where.actorIds);
  if (where.requestIds) query.whereIn('a.request_id', where.requestIds);
  if (where.actions) query.whereIn('a.action', where.actions);
  if (where.from) query.where('a.at', '>=', where.from);
  if (where.before) query.where('a.at', '<', where.before);
  return query;
}

/** Where a keyset page of the trail ended: its last entry's time and id (the next page is below them). */
export interface AuditCursor {
  at: string;
  id: number;
}

/** A page of the trail: with `after`, the entries below that cursor (keyset, no offset). */
export interface AuditPageRequest extends PageRequest {
  after?: AuditCursor;
}

/** Only entries below `after` in newest-first order. */
const below = (query: Knex.QueryBuilder, after: AuditCursor | undefined) =>
  after ? query.whereRaw('(a.at < ? or (a.at = ? and a.id < ?))', [after.at, after.at, after.id]) : query;

/**
 * The audit trail, newest first, filtered, and how many entries match: told by a first page that ends
 * the trail, else counted. Without a user or request filter the count is a sum of the trail's counts
 * per action and day (db/actionCounts.ts), which also tell which actions an action filter names; with
 * one, an index of audit_log counts that user's or request's entries. A page reads limit + 1 entries:
 * the extra one says a next page exists, which starts below the page's last entry (`next`). The
 * caller checked the reader ('audit:read': the desk).
 */
export async function listAuditTrail(db: Db, filter: AuditFilter, page: AuditPageRequest): Promise<Page<AuditRecord> & { next?: AuditCursor }> {
  let counted: Promise<Map<string, number>> | undefined;
  const counts = () => (counted ??= countsByAction(db, 'audit_counts', filter));
  const where = await whereOf(db, filter, counts);
  // A page: its ids from audit_log alone, then their actors and requests. With the joins in the same
  // query, SQLite no longer stops reading each action's range of the (action, at, id) index once it has
  // the page, and sorts every entry of an action family. The whole trail (the CLI's) is one
  // query: PostgreSQL would hash every entry to find the ids of a long list.
  const read = page.limit === undefined ? page : { ...page, limit: page.limit + 1 };
  const query = page.limit === undefined
    ? sliced(matching(auditQuery(db), where), read)
    : auditQuery(db).whereIn('a.id', sliced(below(matching(db('audit_log as a'), where), page.after).select('a.id').orderBy(NEWEST_FIRST), read));
  const fetched: AuditColumns[] = await query.select(COLUMNS).orderBy(NEWEST_FIRST);
  const rows = fetched.slice(0, page.limit);
  const last = rows.at(-1);
  const next = fetched.length > rows.length && last ? { at: last.at, id: Number(last.id) } : undefined;
  const told = page.after ? undefined : lengthTold(read, fetched.length);
  return { rows: rows.map(toRecord), total: told ?? (await countOf(db, where, counts)), ...(next ? { next } : {}) };
}

/**
 * The whole filtered trail, newest first, as CSV text, read QUEUE_EXPORT_CHUNK entries per query by
 * keyset (the (at, id) below the chunk before's last) while it is sent. The caller checked the reader.
 */
export async function auditTrailCsvExport(db: Db, filter: AuditFilter): Promise<AsyncIterable<string>> {
  const where = await whereOf(db, filter, () => countsByAction(db, 'audit_counts', filter));
  return (async function* () {
    yield auditCsvHeader();
    for (let after: AuditCursor | undefined; ; ) {
      // The chunk's ids from audit_log alone, as a page's (listAuditTrail says why).
      const ids = below(matching(db('audit_log as a'), where), after).select('a.id').orderBy(NEWEST_FIRST).limit(QUEUE_EXPORT_CHUNK);
      const rows: AuditColumns[] = await auditQuery(db).whereIn('a.id', ids).select(COLUMNS).orderBy(NEWEST_FIRST);
      yield auditCsvRows(rows.map(toRecord));
      const last = rows.at(-1);
      if (rows.length < QUEUE_EXPORT_CHUNK || !last) return;
      after = { at: last.at, id: Number(last.id) };
    }
  })();
}

async function countOf(db: Db, where: Where, counts: () => Promise<Map<string, number>>): Promise<number> {
  if (where.actorIds || where.requestIds) {
    const [{ n }] = await matching(db('audit_log as a'), where).count({ n: '*' });
    return Number(n);
  }
  const byAction = await counts();
  return (where.actions ?? [...byAction.keys()]).reduce((sum, action) => sum + (byAction.get(action) ?? 0), 0);
}
