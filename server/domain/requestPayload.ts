// The submit payload of SPEC section 3 ("Request (submit payload)"): one zod schema that the server
// validates with and the form builds against, plus the form's own checks of SPEC section 5. Pure.
import { z } from 'zod';
import { ANALYTE_CODES, PURPOSES, SAMPLE_CATEGORIES, type Purpose, type SampleCategory } from './catalog.js';
import type { RequestRecord } from './requestShape.js';

/** The alerts of SPEC section 5, in the order the form checks them. */
export const SUBMIT_ALERTS = {
  required: 'Please fill in all required fields.',
  noTest: 'Please select at least one test.',
  confirm: 'Are you sure you want to submit this request?',
  failed: 'Request submission failed.',
} as const;

export const MAX_SAMPLES = 100;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `text` is a real calendar date written YYYY-MM-DD. */
export function isIsoDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

const requiredText = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? 'required' : 'must be text') })
    .trim()
    .min(1, 'required')
    .max(max, `at most ${max} characters`);

/** Optional text: missing, null and blank all become null. */
const optionalText = (max: number) =>
  z
    .string('must be text')
    .trim()
    .max(max, `at most ${max} characters`)
    .nullish()
    .transform((v) => v || null);

const optionalDate = z
  .string('must be a date (YYYY-MM-DD)')
  .trim()
  .refine((v) => v === '' || isIsoDate(v), 'must be a date (YYYY-MM-DD)')
  .nullish()
  .transform((v) => v || null);

const timestamp = z.iso.datetime({ offset: true, error: 'must be an ISO timestamp' }).nullish();

const SampleSchema = z.object({
  // The form numbers its rows; the server assigns the real sample ids.
  sampleId: z.union([z.number(), z.string().max(40)]).nullish(),
  sampleTypeDescription: z.string('must be text').trim().max(500, 'at most 500 characters'),
});

const testFlags = Object.fromEntries(ANALYTE_CODES.map((code) => [code, z.boolean('must be true or false').optional()]));

const ticked = (payload: Record<string, unknown>) => ANALYTE_CODES.filter((code) => payload[code] === true);

/**
 * The payload as the wire carries it. Unknown keys (a fee or due date sent by a browser, the family
 * flags) are dropped: the server computes those itself. Output: a {@link SubmitRequestInput}.
 */
export const SubmitRequestPayload = z
  .object({
    representativeName: requiredText(200),
    contactNumber: requiredText(20),
    emailAddress: z.email('must be an e-mail address').max(254),
    companyName: requiredText(200),
    clientClassification: requiredText(100),
    ltoNumber: optionalText(12),
    lotBatchNo: optionalText(100),
    sampleSource: optionalText(200),
    productionDate: optionalDate,
    expiryDate: optionalDate,
    samplingDate: optionalDate,
    samplerName: optionalText(200),
    sample: z
      .array(SampleSchema, 'must be a list of samples')
      .min(1, 'add at least one sample')
      .max(MAX_SAMPLES, `at most ${MAX_SAMPLES} samples`),
    testingPurpose: z.enum(PURPOSES, `must be one of ${PURPOSES.join(', ')}`),
    otherTestingPurpose: optionalText(200),
    sampleCategory: z.enum(SAMPLE_CATEGORIES, `must be one of ${SAMPLE_CATEGORIES.join(', ')}`),
    submissionDate: timestamp,
    createdAt: timestamp,
    updatedAt: timestamp,
    gramPositiveAst: optionalText(500),
    gramNegativeAst: optionalText(500),
    ...testFlags,
  })
  // Both checks also run when other fields are wrong, so one answer lists every problem.
  .refine((p) => p.testingPurpose !== 'Others' || Boolean(p.otherTestingPurpose), {
    path: ['otherTestingPurpose'],
    message: 'specify the other purpose',
    when: () => true,
  })
  .refine((p) => ticked(p).length > 0, { path: ['tests'], message: 'select at least one test', when: () => true })
  .transform((p): SubmitRequestInput => {
    const tests = ticked(p);
    const culture = tests.includes('cultureAndSensitivityTest');
    return {
      representativeName: p.representativeName,
      contactNumber: p.contactNumber,
      emailAddress: p.emailAddress.toLowerCase(),
      companyName: p.companyName,
      clientClassification: p.clientClassification,
      ltoNumber: p.ltoNumber?.toUpperCase() ?? null,
      lotBatchNo: p.lotBatchNo,
      sampleSource: p.sampleSource,
      productionDate: p.productionDate,
      expiryDate: p.expiryDate,
      samplingDate: p.samplingDate,
      samplerName: p.samplerName,
      samples: p.sample.map((s) => s.sampleTypeDescription),
      testingPurpose: p.testingPurpose,
      otherTestingPurpose: p.testingPurpose === 'Others' ? p.otherTestingPurpose : null,
      sampleCategory: p.sampleCategory,
      tests,
      // The AST panels belong to culture and sensitivity; without it they are cleared, as on the form.
      gramPositiveAst: culture ? p.gramPositiveAst : null,
      gramNegativeAst: culture ? p.gramNegativeAst : null,
    };
  });

/** The contact and sample details of a submission: stored as given, read back in the same fields. */
type SubmittedDetails = Pick<
  RequestRecord,
  | 'representativeName'
  | 'contactNumber'
  | 'emailAddress'
  | 'companyName'
  | 'clientClassification'
  | 'ltoNumber'
  | 'lotBatchNo'
  | 'sampleSource'
  | 'productionDate'
  | 'expiryDate'
  | 'samplingDate'
  | 'samplerName'
>;

/** A validated submission, ready to store. */
export interface SubmitRequestInput extends SubmittedDetails {
  /** Sample type descriptions, in row order. */
  samples: string[];
  testingPurpose: Purpose;
  otherTestingPurpose: string | null;
  sampleCategory: SampleCategory;
  /** Codes of the ticked tests, in catalog order. */
  tests: string[];
  gramPositiveAst: string | null;
  gramNegativeAst: string | null;
}

/** What the submission form holds (text inputs as typed; '' for unset). */
export interface SubmitRequestForm {
  representativeName: string;
  contactNumber: string;
  emailAddress: string;
  companyName: string;
  clientClassification: string;
  ltoNumber: string;
  testingPurpose: Purpose | '';
  otherTestingPurpose: string;
  sampleCategory: SampleCategory | '';
  lotBatchNo: string;
  sampleSource: string;
  productionDate: string;
  expiryDate: string;
  samplingDate: string;
  samplerName: string;
  /** One description per sample row. */
  samples: string[];
  /** Codes of the ticked tests. */
  tests: string[];
  gramPositiveAst: string;
  gramNegativeAst: string;
}

const blank = (text: string) => text.trim() === '';

/**
 * The alert SPEC section 5 shows before a submission, or null when the form may be submitted.
 * Required: the client's username, contact number, e-mail and company, at least one sample row (their
 * descriptions may be empty), a purpose (with its text for Others) and a sample category; then at
 * least one test.
 */
export function submitFormAlert(form: SubmitRequestForm): string | null {
  const missing =
    [form.representativeName, form.contactNumber, form.emailAddress, form.companyName].some(blank) ||
    form.samples.length === 0 ||
    form.testingPurpose === '' ||
    (form.testingPurpose === 'Others' && blank(form.otherTestingPurpose)) ||
    form.sampleCategory === '';
  if (missing) return SUBMIT_ALERTS.required;
  if (!form.tests.some((code) => ANALYTE_CODES.includes(code))) return SUBMIT_ALERTS.noTest;
  return null;
}

/** The wire payload of a form: every test as a boolean flag, blank dates as null, timestamps of `now`. */
export function buildSubmitPayload(form: SubmitRequestForm, now: Date): z.input<typeof SubmitRequestPayload> {
  const at = now.toISOString();
  const culture = form.tests.includes('cultureAndSensitivityTest');
  const orNull = (text: string) => (blank(text) ? null : text.trim());
  return {
    representativeName: form.representativeName,
    contactNumber: form.contactNumber,
    emailAddress: form.emailAddress,
    companyName: form.companyName,
    clientClassification: form.clientClassification,
    ltoNumber: orNull(form.ltoNumber),
    lotBatchNo: orNull(form.lotBatchNo),
    sampleSource: orNull(form.sampleSource),
    productionDate: orNull(form.productionDate),
    expiryDate: orNull(form.expiryDate),
    samplingDate: orNull(form.samplingDate),
    samplerName: orNull(form.samplerName),
    sample: form.samples.map((description, i) => ({ sampleId: i + 1, sampleTypeDescription: description })),
    testingPurpose: form.testingPurpose as Purpose,
    otherTestingPurpose: form.testingPurpose === 'Others' ? orNull(form.otherTestingPurpose) : null,
    sampleCategory: form.sampleCategory as SampleCategory,
    submissionDate: at,
    createdAt: at,
    updatedAt: at,
    ...Object.fromEntries(ANALYTE_CODES.map((code) => [code, form.tests.includes(code)])),
    gramPositiveAst: culture ? orNull(form.gramPositiveAst) : null,
    gramNegativeAst: culture ? orNull(form.gramNegativeAst) : null,
  };
}
