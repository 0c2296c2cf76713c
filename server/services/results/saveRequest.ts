// A tester's Save of one request: every entry of its discipline for that request in ONE transaction
// (all or nothing), through the same rules as the per-group calls (writeResults). The answer says
// what was really written, so a screen never claims "saved" for a write that did not happen.
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { DISCIPLINE_GROUPS } from '../../domain/catalog.js';
import type { Actor } from '../../domain/policies.js';
import type { RequestStatus } from '../../domain/requestStatus.js';
import type { AnalysisRecord, Remark } from '../../domain/resultShape.js';
import { disciplineOf } from '../../domain/roles.js';
import type { Measurement } from '../../domain/specifications.js';
import { inTransaction } from '../../db/transaction.js';
import { forbidden, notFound } from '../../errors.js';
import { analysesOf } from './read.js';
import { writeResults } from './write.js';

export interface RequestEntry {
  sampleId: number;
  testCode: string;
  /** Empty (or only spaces) clears the result. */
  value: string | null;
  remark: '' | Remark | null;
  analysisDate: string | null;
  /** Issue 26: absent leaves the stored measurement, null clears it. */
  measurement?: Measurement | null;
  remarkConfirmed?: boolean;
}

export interface SavedRequestResults {
  requestId: number;
  /** Analyses whose stored result changed (0: nothing was written). */
  changed: number;
  requestStatus: RequestStatus;
  /** The request's analyses of the tester's discipline, as stored after the save. */
  analyses: AnalysisRecord[];
}

/** Only a tester enters results: checked before the input is read, so anyone else gets a 403, not a 400. */
export function assertEntersResults(actor: Actor): void {
  if (!disciplineOf(actor.role)) throw forbidden('Only a tester enters results.');
}

export async function saveRequestResults(
  deps: { db: Knex; clock: Clock },
  actor: Actor,
  input: { requestId: number; entries: readonly RequestEntry[] },
  meta: { ip?: string | null } = {},
): Promise<SavedRequestResults> {
  assertEntersResults(actor);
  const discipline = disciplineOf(actor.role)!;
  const { requestId } = input;
  return inTransaction(deps.db, async (trx) => {
    const { changed } = await writeResults(trx, { clock: deps.clock, actor, ip: meta.ip, entries: input.entries.map((e) => ({ ...e, requestId })) });
    const request = await trx('requests').where('id', requestId).first('status');
    if (!request) throw notFound(`No request with id ${requestId}.`);
    const groups = DISCIPLINE_GROUPS[discipline];
    const analyses = (await analysesOf(trx, [requestId])).filter((a) => groups.includes(a.group));
    return { requestId, changed, requestStatus: request.status as RequestStatus, analyses };
  });
}
