// A client's submission: the request, its samples and ticked tests, stored all or nothing with its
// audit entry and progress rows. Fee and due date are computed here from the catalog, never
// taken from the browser.
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { progressInserts } from '../../db/requestProgress.js';
import { insertWithRows } from '../../db/transaction.js';
import { estimateFee, expectedCompletionDate } from '../../domain/fees.js';
import type { SubmitRequestInput } from '../../domain/requestPayload.js';
import { forbidden } from '../../errors.js';
import { auditInsert } from '../audit.js';
import { findClientProfileDrawingId } from '../clients.js';
import { requestViewOf, SAMPLE_COLUMNS, sampleRecordOf, type RequestRow, type RequestWithSamples, type SampleRow } from './read.js';

export interface SubmitDeps {
  db: Knex;
  clock: Clock;
}

export async function submitRequest(
  deps: SubmitDeps,
  clientUserId: number,
  input: SubmitRequestInput,
  meta: { ip?: string | null } = {},
): Promise<RequestWithSamples> {
  const now = deps.clock.now().toISOString();
  const fee = estimateFee({
    tests: input.tests,
    sampleCount: input.samples.length,
    gramPositiveAst: input.gramPositiveAst,
    gramNegativeAst: input.gramNegativeAst,
  }).total;
  const dueDate = expectedCompletionDate(now.slice(0, 10), input.tests);

  // The contact identity comes from the profile, never from the payload (DESIGN.md section 10).
  // The same read draws the request's id where the database can (PostgreSQL), so the request and
  // all its rows then go as one statement: two round trips in all instead of five.
  const found = await findClientProfileDrawingId(deps.db, clientUserId, 'requests');
  if (!found) throw forbidden();
  const { profile, drawnId } = found;
  const row = {
    control_number: null,
    client_user_id: clientUserId,
    status: 'PENDING_REVIEW',
    representative_name: input.representativeName,
    contact_number: input.contactNumber,
    email_address: profile.email,
    company_name: profile.companyName,
    client_classification: input.clientClassification,
    lto_number: input.ltoNumber,
    testing_purpose: input.testingPurpose,
    other_testing_purpose: input.otherTestingPurpose,
    sample_category: input.sampleCategory,
    lot_batch_no: input.lotBatchNo,
    sample_source: input.sampleSource,
    production_date: input.productionDate,
    expiry_date: input.expiryDate,
    sampling_date: input.samplingDate,
    sampler_name: input.samplerName,
    gram_positive_ast: input.gramPositiveAst,
    gram_negative_ast: input.gramNegativeAst,
    estimated_fee: fee,
    due_date: dueDate,
    submission_date: now,
    created_at: now,
    updated_at: now,
  } satisfies Omit<RequestRow, 'id'> & Record<string, unknown>;

  // The request's other rows need only its id; the samples go last, for their ids.
  const { id, rows: samples } = await insertWithRows<SampleRow>(deps.db, 'requests', row, drawnId, (db, requestId) => [
    db('request_tests').insert(input.tests.map((code) => ({ request_id: requestId, test_code: code }))),
    ...progressInserts(db, { ...row, id: requestId }, input.tests),
    auditInsert(db, deps.clock, {
      actorUserId: clientUserId,
      action: 'request.submit',
      requestId,
      details: { after: { status: 'PENDING_REVIEW', tests: input.tests, samples: input.samples.length, estimatedFee: fee, dueDate } },
      ip: meta.ip ?? null,
    }),
    db('samples')
      .insert(input.samples.map((description, i) => ({
        request_id: requestId, position: i + 1, sample_type_description: description, species: input.sampleSpecies?.[i] ?? null,
      })))
      .returning(SAMPLE_COLUMNS),
  ]);

  // The answer is built from what was written, not read back.
  return {
    ...requestViewOf({ ...row, id }, input.tests, profile.address),
    samples: samples.map(sampleRecordOf).sort((a, b) => a.position - b.position),
  };
}
