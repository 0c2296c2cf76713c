// Reading the audit log (issue 15): the trail viewer for staff and admins, filtered and paged in
// one query, and the rows of one request for its timeline. There is deliberately no write here
// beyond services/audit.ts's append: the log is never updated or deleted.
import type { Knex } from 'knex';
import { dayAfter, requestFilterOf, userFilterOf, type AuditFilter } from '../domain/auditTrail.js';
import type { AuditRecord } from '../domain/timeline.js';
import type { Page, PageRequest } from './requests/lists.js';

type Db = Knex | Knex.Transaction;

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

function applyFilter(query: Knex.QueryBuilder, filter: AuditFilter): Knex.QueryBuilder {
  if (filter.user) {
    const user = userFilterOf(filter.user);
    if ('userId' in user) query.where('a.actor_user_id', user.userId);
    else query.where((q) => q.whereRaw('lower(u.username) = ?', [user.name]).orWhere('u.email', user.name));
  }
  if (filter.request) {
    const request = requestFilterOf(filter.request);
    if ('requestId' in request) query.where('a.request_id', request.requestId);
    else query.where('r.control_number', request.controlNumber);
  }
  // An exact action, or a family of them: 'request' matches request.approve, request.reject, ...
  if (filter.action) query.where((q) => q.where('a.action', filter.action!).orWhere('a.action', 'like', `${filter.action}.%`));
  if (filter.since) query.where('a.at', '>=', `${filter.since}T00:00:00.000Z`);
  if (filter.until) query.where('a.at', '<', dayAfter(filter.until));
  return query;
}

/**
 * The audit trail, newest first, filtered; one query gives the page and the number of matching
 * entries (a window count). The caller checked the reader ('audit:read': the desk).
 */
export async function listAuditTrail(db: Db, filter: AuditFilter, page: PageRequest): Promise<Page<AuditRecord>> {
  const query = applyFilter(auditQuery(db), filter)
    .select([...COLUMNS, db.raw('count(*) over () as total_count')])
    .orderBy([{ column: 'a.at', order: 'desc' }, { column: 'a.id', order: 'desc' }]);
  if (page.limit !== undefined) query.limit(page.limit);
  if (page.offset) query.offset(page.offset);
  const rows: Array<AuditColumns & { total_count: number | string }> = await query;
  const total = rows.length > 0 ? Number(rows[0].total_count) : 0;
  return { rows: rows.map(toRecord), total };
}
