import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { insertValues } from '../db/sql.js';

const AUDIT_COLUMNS = ['at', 'actor_user_id', 'action', 'request_id', 'details', 'ip'] as const;

export interface AuditEntry {
  actorUserId: number | null;
  action: string;
  requestId?: number | null;
  details?: unknown;
  ip?: string | null;
}

/** Appends to the audit log; call it inside the transaction of the change it records. */
export async function recordAudit(trx: Knex | Knex.Transaction, clock: Clock, entry: AuditEntry): Promise<void> {
  await trx('audit_log').insert({
    at: clock.now().toISOString(),
    actor_user_id: entry.actorUserId,
    action: entry.action,
    request_id: entry.requestId ?? null,
    details: entry.details === undefined ? null : JSON.stringify(entry.details),
    ip: entry.ip ?? null,
  });
}

/** Audit rows inserted in one statement (bulk imports). */
export async function recordAuditMany(trx: Knex | Knex.Transaction, clock: Clock, entries: AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const at = clock.now().toISOString();
  const rows = entries.map((e) => [at, e.actorUserId, e.action, e.requestId ?? null, e.details === undefined ? null : JSON.stringify(e.details), e.ip ?? null]);
  await insertValues(trx, 'audit_log', AUDIT_COLUMNS, rows);
}
