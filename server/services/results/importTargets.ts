// What a results import needs to know of the requests its file names, read in a few chunked queries.
import type { Knex } from 'knex';
import type { ImportTarget } from '../../domain/resultsCsv.js';
import type { RequestStatus } from '../../domain/requestStatus.js';
import { selectArrays } from '../../db/sql.js';

// Ids per statement: few round trips for a file of 100,000 rows, within either engine's bound on bindings.
export const LOOKUP_CHUNK = 5000;

type MutableTarget = ImportTarget & { tests: string[]; sampleIds: Map<number, number> };

/** The requests named by `controlNumbers`, with their tests and samples: three queries per 5,000. */
export async function loadImportTargets(db: Knex | Knex.Transaction, controlNumbers: readonly string[]): Promise<Map<string, ImportTarget>> {
  const targets = new Map<string, ImportTarget>();
  const unique = [...new Set(controlNumbers)];
  for (let i = 0; i < unique.length; i += LOOKUP_CHUNK) {
    const requestColumns = ['id', 'control_number', 'status', 'submission_date'];
    const requests = (await selectArrays(
      db,
      db('requests').whereIn('control_number', unique.slice(i, i + LOOKUP_CHUNK)).select(requestColumns),
      requestColumns,
    )) as Array<[number, string, RequestStatus, string]>;
    if (requests.length === 0) continue;
    const byId = new Map<number, MutableTarget>();
    for (const [id, controlNumber, status, submissionDate] of requests) {
      const target: MutableTarget = {
        requestId: Number(id),
        controlNumber,
        status,
        tests: [],
        sampleIds: new Map(),
        submissionDate: String(submissionDate).slice(0, 10),
      };
      byId.set(target.requestId, target);
      targets.set(target.controlNumber, target);
    }
    const ids = [...byId.keys()];
    const tests = await selectArrays(db, db('request_tests').whereIn('request_id', ids).select('request_id', 'test_code'), ['request_id', 'test_code']);
    for (const [requestId, testCode] of tests as Array<[number, string]>) byId.get(Number(requestId))!.tests.push(testCode);
    const samples = await selectArrays(db, db('samples').whereIn('request_id', ids).select('id', 'request_id', 'position'), ['id', 'request_id', 'position']);
    for (const [id, requestId, position] of samples as Array<[number, number, number]>) {
      byId.get(Number(requestId))!.sampleIds.set(Number(position), Number(id));
    }
  }
  return targets;
}
