// Reading requests in the "as read" shape. A list costs a fixed number of queries (requests, their
// tests, optionally their samples), never one per row.
import type { Knex } from 'knex';
import { catalogOrder } from '../../domain/catalog.js';
import {
  presentRequest,
  type RequestRecord,
  type RequestView,
  type RequestWithSamples,
  type SampleRecord,
} from '../../domain/requestShape.js';
import type { RequestStatus } from '../../domain/requestStatus.js';

export type { RequestView, RequestWithSamples, SampleRecord };

interface RequestRow {
  id: number;
  control_number: string | null;
  client_user_id: number;
  submission_date: string;
  status: string;
  representative_name: string;
  contact_number: string;
  email_address: string;
  company_name: string;
  client_classification: string;
  lto_number: string | null;
  sample_category: string;
  lot_batch_no: string | null;
  sample_source: string | null;
  production_date: string | null;
  expiry_date: string | null;
  sampling_date: string | null;
  sampler_name: string | null;
  testing_purpose: string;
  other_testing_purpose: string | null;
  gram_positive_ast: string | null;
  gram_negative_ast: string | null;
  estimated_fee: number | string;
  due_date: string | null;
}

function toRecord(row: RequestRow, tests: string[]): RequestRecord {
  return {
    requestId: Number(row.id),
    controlNumber: row.control_number,
    clientUserId: Number(row.client_user_id),
    submissionDate: row.submission_date,
    requestStatus: row.status as RequestStatus,
    representativeName: row.representative_name,
    contactNumber: row.contact_number,
    emailAddress: row.email_address,
    companyName: row.company_name,
    clientClassification: row.client_classification,
    ltoNumber: row.lto_number,
    sampleCategory: row.sample_category,
    lotBatchNo: row.lot_batch_no,
    sampleSource: row.sample_source,
    productionDate: row.production_date,
    expiryDate: row.expiry_date,
    samplingDate: row.sampling_date,
    samplerName: row.sampler_name,
    testingPurpose: row.testing_purpose,
    otherTestingPurpose: row.other_testing_purpose,
    gramPositiveAstText: row.gram_positive_ast,
    gramNegativeAstText: row.gram_negative_ast,
    estimatedFee: Number(row.estimated_fee),
    dueDate: row.due_date,
    tests: [...tests].sort((a, b) => catalogOrder(a) - catalogOrder(b)),
  };
}

/**
 * Requests chosen by `filter` (a knex modifier on the `requests` table), in the order it sets.
 * Example: `listRequests(db, (q) => q.where('status', 'PENDING_REVIEW').orderBy('submission_date'))`.
 */
export async function listRequests(db: Knex | Knex.Transaction, filter: (q: Knex.QueryBuilder) => Knex.QueryBuilder): Promise<RequestView[]> {
  const rows: RequestRow[] = await filter(db('requests').select('requests.*'));
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const testsById = new Map<number, string[]>();
  for (let i = 0; i < ids.length; i += 500) {
    const testRows = await db('request_tests').whereIn('request_id', ids.slice(i, i + 500)).select('request_id', 'test_code');
    for (const t of testRows) {
      const list = testsById.get(Number(t.request_id)) ?? [];
      list.push(t.test_code);
      testsById.set(Number(t.request_id), list);
    }
  }
  return rows.map((r) => presentRequest(toRecord(r, testsById.get(Number(r.id)) ?? [])));
}

export async function findRequest(db: Knex | Knex.Transaction, requestId: number): Promise<RequestView | undefined> {
  const [found] = await listRequests(db, (q) => q.where('requests.id', requestId));
  return found;
}

/** Samples of several requests in one query, grouped by request id, in position order. */
export async function samplesOf(db: Knex | Knex.Transaction, requestIds: readonly number[]): Promise<Map<number, SampleRecord[]>> {
  const byRequest = new Map<number, SampleRecord[]>();
  for (let i = 0; i < requestIds.length; i += 500) {
    const rows = await db('samples').whereIn('request_id', requestIds.slice(i, i + 500)).orderBy(['request_id', 'position']).select('id', 'request_id', 'position', 'sample_type_description');
    for (const s of rows) {
      const list = byRequest.get(Number(s.request_id)) ?? [];
      list.push({ sampleId: Number(s.id), position: Number(s.position), sampleTypeDescription: s.sample_type_description });
      byRequest.set(Number(s.request_id), list);
    }
  }
  return byRequest;
}

/** Requests with their samples attached. */
export async function withSamples(db: Knex | Knex.Transaction, requests: RequestView[]): Promise<RequestWithSamples[]> {
  const samples = await samplesOf(db, requests.map((r) => r.requestId));
  return requests.map((r) => ({ ...r, samples: samples.get(r.requestId) ?? [] }));
}
