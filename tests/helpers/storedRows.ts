// What a fuzz (or any sweep of calls) may leave in the database: every row a form writes is one the
// form's own domain schema accepts and would store unchanged (parse the stored values as the form's
// input: the output must be what is stored), and every text column of those tables is well-formed
// text. Each problem names the table, the row and the column.
import type { z } from 'zod';
import {
  ClassificationField,
  CompanyAddressField,
  CompanyNameField,
  ContactNumberField,
  EmailField,
  LtoNumberField,
  MiddleInitialField,
  NameField,
  OptionalUsernameField,
} from '../../server/domain/accountRules.js';
import { ANALYTE_CODES } from '../../server/domain/catalog.js';
import { MESSAGE_MAX_LENGTH } from '../../server/domain/requestMessages.js';
import { SubmitRequestPayload } from '../../server/domain/requestPayload.js';
import { normalizeResult, parseResultFields } from '../../server/domain/resultShape.js';
import { invalidCharacterIn } from '../../server/domain/wellFormedText.js';
import type { TestApp } from './testApp.js';

type Row = Record<string, unknown>;

/** Tables whose rows come from what callers type (forms, desk, results, certificates), and the audit trail that records them. */
const TABLES = ['users', 'clients', 'requests', 'samples', 'request_tests', 'analyses', 'request_messages', 'sample_receipts', 'reports', 'audit_log'];

/** `column` of `row` parsed by the form's `schema`: a problem unless it passes and gives back the stored value. */
function fieldProblem(table: string, row: Row, column: string, schema: z.ZodType, input: unknown = row[column]): string | undefined {
  const parsed = schema.safeParse(input);
  const where = `${table} ${row.id ?? row.user_id} ${column}=${JSON.stringify(row[column])}`;
  if (!parsed.success) return `${where}: ${parsed.error.issues.map((i) => i.message).join('; ')}`;
  return parsed.data === row[column] ? undefined : `${where}: the form would store ${JSON.stringify(parsed.data)}`;
}

/** `rows` by their `key` column. */
function groupBy(rows: Row[], key: string): Map<unknown, Row[]> {
  const groups = new Map<unknown, Row[]>();
  for (const row of rows) groups.set(row[key], [...(groups.get(row[key]) ?? []), row]);
  return groups;
}

/** The submission a request row and its samples and tests came from, as the form sends it. */
function submissionOf(request: Row, samples: string[], tests: string[]): Record<string, unknown> {
  return {
    representativeName: request.representative_name,
    contactNumber: request.contact_number,
    clientClassification: request.client_classification,
    ltoNumber: request.lto_number,
    lotBatchNo: request.lot_batch_no,
    sampleSource: request.sample_source,
    productionDate: request.production_date,
    expiryDate: request.expiry_date,
    samplingDate: request.sampling_date,
    samplerName: request.sampler_name,
    sample: samples.map((sampleTypeDescription) => ({ sampleTypeDescription })),
    testingPurpose: request.testing_purpose,
    otherTestingPurpose: request.other_testing_purpose,
    sampleCategory: request.sample_category,
    gramPositiveAst: request.gram_positive_ast,
    gramNegativeAst: request.gram_negative_ast,
    ...Object.fromEntries(tests.filter((t) => ANALYTE_CODES.includes(t)).map((t) => [t, true])),
  };
}

const SUBMITTED_COLUMNS = {
  representative_name: 'representativeName', contact_number: 'contactNumber', client_classification: 'clientClassification', lto_number: 'ltoNumber',
  lot_batch_no: 'lotBatchNo', sample_source: 'sampleSource', production_date: 'productionDate', expiry_date: 'expiryDate', sampling_date: 'samplingDate',
  sampler_name: 'samplerName', testing_purpose: 'testingPurpose', other_testing_purpose: 'otherTestingPurpose', sample_category: 'sampleCategory',
  gram_positive_ast: 'gramPositiveAst', gram_negative_ast: 'gramNegativeAst',
} as const;

/** Every stored row that its form would refuse or store differently, and every text that is not well-formed. */
export async function invalidStoredRows(app: Pick<TestApp, 'db'>): Promise<string[]> {
  const db = app.db;
  const rows = Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, (await db(t).select()) as Row[]] as const)));
  const problems: string[] = [];
  const add = (p: string | undefined) => p && problems.push(p);

  for (const [table, list] of Object.entries(rows)) {
    for (const row of list) {
      for (const [column, value] of Object.entries(row)) {
        const what = typeof value === 'string' ? invalidCharacterIn(value) : undefined;
        if (what) problems.push(`${table} ${row.id ?? row.user_id} ${column}: ${what}`);
      }
    }
  }

  const userColumns = { username: OptionalUsernameField, first_name: NameField, middle_name: MiddleInitialField, last_name: NameField, email: EmailField };
  for (const user of rows.users) {
    for (const [column, schema] of Object.entries(userColumns)) add(fieldProblem('users', user, column, schema));
    // Staff accounts made by `labctl user add` may have no contact number.
    if (user.contact_number !== '') add(fieldProblem('users', user, 'contact_number', ContactNumberField));
  }
  const clientColumns = { company_name: CompanyNameField, lto_no: LtoNumberField, classification: ClassificationField, address: CompanyAddressField };
  for (const client of rows.clients) for (const [column, schema] of Object.entries(clientColumns)) add(fieldProblem('clients', client, column, schema));

  const samplesOf = groupBy(rows.samples, 'request_id');
  const testsOf = groupBy(rows.request_tests, 'request_id');
  for (const request of rows.requests) {
    const samples = (samplesOf.get(request.id) ?? []).sort((a, b) => Number(a.id) - Number(b.id)).map((s) => String(s.sample_type_description));
    const tests = (testsOf.get(request.id) ?? []).map((t) => String(t.test_code));
    const parsed = SubmitRequestPayload.safeParse(submissionOf(request, samples, tests));
    if (!parsed.success) {
      problems.push(`requests ${request.id}: the submission form refuses it: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
      continue;
    }
    const stored = parsed.data as unknown as Record<string, unknown>;
    for (const [column, field] of Object.entries(SUBMITTED_COLUMNS)) {
      if (stored[field] !== request[column]) problems.push(`requests ${request.id} ${column}=${JSON.stringify(request[column])}: the form would store ${JSON.stringify(stored[field])}`);
    }
    if (JSON.stringify(parsed.data.samples) !== JSON.stringify(samples)) problems.push(`samples of request ${request.id}: the form would store ${JSON.stringify(parsed.data.samples)}, not ${JSON.stringify(samples)}`);
    if ([...parsed.data.tests].sort().join() !== [...tests].sort().join()) problems.push(`request_tests of request ${request.id}: ${tests.join()} are not the tests of a submission`);
  }

  for (const analysis of rows.analyses) {
    const fields = { value: analysis.value, remark: analysis.remark, analysisDate: analysis.analysis_date };
    const parsed = parseResultFields(fields);
    if (!parsed.success) problems.push(`analyses ${analysis.id}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    else if (JSON.stringify(normalizeResult(parsed.data)) !== JSON.stringify(fields)) problems.push(`analyses ${analysis.id}: ${JSON.stringify(fields)} is not what a result write stores`);
  }

  for (const message of rows.request_messages) {
    const body = String(message.body);
    const blankAllowed = message.kind === 'rejection';
    if (body !== body.trim() || body.length > MESSAGE_MAX_LENGTH || (!body && !blankAllowed)) problems.push(`request_messages ${message.id} body=${JSON.stringify(body.slice(0, 60))}: not what the message form stores`);
  }
  return problems;
}
