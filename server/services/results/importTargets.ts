// What a results import needs to know of the requests its file names, read in a few chunked queries.
import type { Knex } from 'knex';
import type { ImportTarget } from '../../domain/resultsCsv.js';
import type { RequestStatus } from '../../domain/requestStatus.js';

const LOOKUP_CHUNK = 500;

type MutableTarget = ImportTarget & { tests: string[]; sampleIds: Map<number, number> };

/** The requests named by `controlNumbers`, with their tests and samples: three queries per 500. */
export async function loadImportTargets(db: Knex | Knex.Transaction, controlNumbers: readonly string[]): Promise<Map<string, ImportTarget>> {
  const targets = new Map<string, ImportTarget>();
  const unique = [...new Set(controlNumbers)];
  for (let i = 0; i < unique.length; i += LOOKUP_CHUNK) {
    const requests = await db('requests').whereIn('control_number', unique.slice(i, i + LOOKUP_CHUNK)).select('id', 'control_number', 'status', 'submission_date');
    if (requests.length === 0) continue;
    const byId = new Map<number, MutableTarget>();
    for (const r of requests) {
      const target: MutableTarget = {
        requestId: Number(r.id),
        controlNumber: r.control_number,
        status: r.status as RequestStatus,
        tests: [],
        sampleIds: new Map(),
        submissionDate: String(r.submission_date).slice(0, 10),
      };
      byId.set(target.requestId, target);
      targets.set(target.controlNumber, target);
    }
    const ids = [...byId.keys()];
    for (const t of await db('request_tests').whereIn('request_id', ids).select('request_id', 'test_code')) byId.get(Number(t.request_id))!.tests.push(t.test_code);
    for (const s of await db('samples').whereIn('request_id', ids).select('id', 'request_id', 'position')) {
      byId.get(Number(s.request_id))!.sampleIds.set(Number(s.position), Number(s.id));
    }
  }
  return targets;
}
