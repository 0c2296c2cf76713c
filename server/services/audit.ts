import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { valuesInserts, type Statement } from '../db/sql.js';

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
  await auditInsert(trx, clock, entry);
}

/** The row of an audit entry, as auditInsert stores it. */
export function auditRow(clock: Clock, entry: AuditEntry): Record<string, unknown> {
  return {
    at: clock.now().toISOString(),
    actor_user_id: entry.actorUserId,
    action: entry.action,
    request_id: entry.requestId ?? null,
    details: entry.details === undefined ? null : JSON.stringify(entry.details),
    ip: entry.ip ?? null,
  };
}

/** The insert of an audit entry, to run with the change's other writes (runTogether, db/sql.ts). */
export function auditInsert(trx: Knex | Knex.Transaction, clock: Clock, entry: AuditEntry): Knex.QueryBuilder {
  return trx('audit_log').insert(auditRow(clock, entry));
}

/** The inserts of many audit entries, a statement per 500 (bulk imports), to run with the change's other writes. */
export function auditInserts(trx: Knex | Knex.Transaction, clock: Clock, entries: AuditEntry[]): Statement[] {
  const at = clock.now().toISOString();
  const rows = entries.map((e) => [at, e.actorUserId, e.action, e.requestId ?? null, e.details === undefined ? null : JSON.stringify(e.details), e.ip ?? null]);
  return valuesInserts(trx, 'audit_log', AUDIT_COLUMNS, rows);
}
