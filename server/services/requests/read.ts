// Reading requests in the "as read" shape. A list costs a fixed number of queries (requests, their
// tests, their clients' addresses, optionally their samples), never one per row.
import type { Knex } from 'knex';
import { inChunks } from '../../db/sql.js';
import { catalogOrder } from '../../domain/catalog.js';
import {
  presentRequest,
  type RequestRecord,
  type RequestDetail,
  type RequestView,
  type RequestWithSamples,
  type SampleRecord,
} from '../../domain/requestShape.js';
import type { RequestStatus } from '../../domain/requestStatus.js';

export type { RequestDetail, RequestView, RequestWithSamples, SampleRecord };

export interface RequestRow {
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

/** A row of `requests` in the "as read" shape, given its tests and its client's address. */
export function requestViewOf(row: RequestRow, tests: string[], companyAddress: string | null): RequestView {
  return presentRequest(toRecord(row, tests, companyAddress));
}

function toRecord(row: RequestRow, tests: string[], companyAddress: string | null): RequestRecord {
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
    companyAddress,
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
  const testRows = await inChunks<number, { request_id: number; test_code: string }>(ids, (chunk) => db('request_tests').whereIn('request_id', chunk).select('request_id', 'test_code'));
  for (const t of testRows) {
    const list = testsById.get(Number(t.request_id)) ?? [];
    list.push(t.test_code);
    testsById.set(Number(t.request_id), list);
  }
  const clientIds = [...new Set(rows.map((r) => Number(r.client_user_id)))];
  const addressRows = await inChunks<number, { user_id: number; address: string | null }>(clientIds, (chunk) => db('clients').whereIn('user_id', chunk).select('user_id', 'address'));
  const addresses = new Map(addressRows.map((a) => [Number(a.user_id), a.address]));
  return rows.map((r) => requestViewOf(r, testsById.get(Number(r.id)) ?? [], addresses.get(Number(r.client_user_id)) ?? null));
}

export async function findRequest(db: Knex | Knex.Transaction, requestId: number): Promise<RequestView | undefined> {
  const [found] = await listRequests(db, (q) => q.where('requests.id', requestId));
  return found;
}

/** The request with this control number (e.g. 2026-0012), if any. */
export async function findRequestByControlNumber(db: Knex | Knex.Transaction, controlNumber: string): Promise<RequestView | undefined> {
  const [found] = await listRequests(db, (q) => q.where('requests.control_number', controlNumber));
  return found;
}

export interface SampleRow {
  id: number;
  request_id: number;
  position: number;
  sample_type_description: string;
  species: string | null;
}

export const SAMPLE_COLUMNS = ['id', 'request_id', 'position', 'sample_type_description', 'species'] as const;

export function sampleRecordOf(row: SampleRow): SampleRecord {
  return { sampleId: Number(row.id), position: Number(row.position), sampleTypeDescription: row.sample_type_description, species: row.species ?? null };
}

/** Samples of several requests in one query, grouped by request id, in position order. */
export async function samplesOf(db: Knex | Knex.Transaction, requestIds: readonly number[]): Promise<Map<number, SampleRecord[]>> {
  const byRequest = new Map<number, SampleRecord[]>();
  const rows = await inChunks<number, SampleRow>(requestIds, (chunk) =>
    db('samples').whereIn('request_id', chunk).orderBy(['request_id', 'position']).select(...SAMPLE_COLUMNS),
  );
  for (const s of rows) {
    const list = byRequest.get(Number(s.request_id)) ?? [];
    list.push(sampleRecordOf(s));
    byRequest.set(Number(s.request_id), list);
  }
  return byRequest;
}

/** Requests with their samples attached. */
export async function withSamples(db: Knex | Knex.Transaction, requests: RequestView[]): Promise<RequestWithSamples[]> {
  const samples = await samplesOf(db, requests.map((r) => r.requestId));
  return requests.map((r) => ({ ...r, samples: samples.get(r.requestId) ?? [] }));
}

/** The latest rejection reason of a request (services/requests/transitions.ts stores it as a message). */
async function rejectionReasonOf(db: Knex | Knex.Transaction, requestId: number): Promise<string | null> {
  const row = await db('request_messages').where({ request_id: requestId, kind: 'rejection' }).orderBy('id', 'desc').first('body');
  return row ? String(row.body) : null;
}

/** The request with its samples and, when rejected, the reason the client is shown; undefined when there is none. */
export async function readRequestDetail(db: Knex | Knex.Transaction, requestId: number): Promise<RequestDetail | undefined> {
  const request = await findRequest(db, requestId);
  if (!request) return undefined;
  const [detail] = await withSamples(db, [request]);
  return { ...detail, rejectionReason: request.requestStatus === 'REJECTED' ? await rejectionReasonOf(db, requestId) : null };
}
