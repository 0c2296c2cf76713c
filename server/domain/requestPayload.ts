// The submit payload of SPEC section 3 ("Request (submit payload)"): one zod schema that the server
// validates with and the form builds against, plus the form's own checks of SPEC section 5. Pure.
import { z } from 'zod';
import { ANALYTE_CODES, PURPOSES, SAMPLE_CATEGORIES, SPECIES_CODES, type Purpose, type SampleCategory } from './catalog.js';
import { isIsoDate } from './dates.js';
import { LTO_MAX, canonicalLto } from './accountRules.js';
import type { RequestRecord } from './requestShape.js';

/** The alerts of SPEC section 5, in the order the form checks them. */
export const SUBMIT_ALERTS = {
  required: 'Please fill in all required fields.',
  noTest: 'Please select at least one test.',
  confirm: 'Are you sure you want to submit this request?',
  failed: 'Request submission failed.',
} as const;

export const MAX_SAMPLES = 100;

interface AstPanels<T> {
  gramPositiveAst: T;
  gramNegativeAst: T;
}

/**
 * The AST panels belong to Culture and Sensitivity: with that test among `tests` they are kept, without
 * it they become `cleared` (SPEC section 5), on the form, in its payload and on the server alike.
 */
export function astPanelsFor<T>(tests: readonly string[], panels: AstPanels<T>, cleared: T): AstPanels<T> {
  const culture = tests.includes('cultureAndSensitivityTest');
  return { gramPositiveAst: culture ? panels.gramPositiveAst : cleared, gramNegativeAst: culture ? panels.gramNegativeAst : cleared };
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

const SPECIES_ERROR = `must be one of ${SPECIES_CODES.join(', ')} (or null: not stated)`;

/**
 * A sample's species of origin (issue 26): one of the catalogue's nine species, or not stated
 * (missing, null or blank). It narrows the specifications that judge the sample's results.
 */
export const SpeciesOfOriginSchema = z
  .union([z.literal(''), z.enum(SPECIES_CODES)], { error: SPECIES_ERROR })
  .nullish()
  .transform((v) => v || null);

const SampleSchema = z.object({
  // The form numbers its rows; the server assigns the real sample ids.
  sampleId: z.union([z.number(), z.string().max(40)]).nullish(),
  sampleTypeDescription: z.string('must be text').trim().max(500, 'at most 500 characters'),
  species: SpeciesOfOriginSchema,
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
    // emailAddress and companyName are not read: the server takes them from the client's profile
    // (DESIGN.md section 10), so a payload cannot make the laboratory mail someone else.
    clientClassification: requiredText(100),
    // Canonical before the length check: upper-casing can lengthen a text ('ß' becomes 'SS').
    ltoNumber: z
      .string('must be text')
      .max(200, 'at most 12 characters')
      .transform(canonicalLto)
      .pipe(z.string().trim().max(LTO_MAX, `at most ${LTO_MAX} characters`))
      .nullish()
      .transform((v) => v || null),
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
    return {
      representativeName: p.representativeName,
      contactNumber: p.contactNumber,
      clientClassification: p.clientClassification,
      ltoNumber: p.ltoNumber,
      lotBatchNo: p.lotBatchNo,
      sampleSource: p.sampleSource,
      productionDate: p.productionDate,
      expiryDate: p.expiryDate,
      samplingDate: p.samplingDate,
      samplerName: p.samplerName,
      samples: p.sample.map((s) => s.sampleTypeDescription),
      sampleSpecies: p.sample.map((s) => s.species),
      testingPurpose: p.testingPurpose,
      otherTestingPurpose: p.testingPurpose === 'Others' ? p.otherTestingPurpose : null,
      sampleCategory: p.sampleCategory,
      tests,
      ...astPanelsFor(tests, p, null),
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

/** A validated submission, ready to store with the e-mail and company of the client's profile. */
export interface SubmitRequestInput extends Omit<SubmittedDetails, 'emailAddress' | 'companyName'> {
  /** Sample type descriptions, in row order. */
  samples: string[];
  /** Each sample's species of origin (a species code, null: not stated), in row order; missing: none stated. */
  sampleSpecies?: (string | null)[];
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
  /** Each sample row's species of origin ('' for not stated), in row order; missing: none stated. */
  sampleSpecies?: string[];
  /** Codes of the ticked tests. */
  tests: string[];
  gramPositiveAst: string;
  gramNegativeAst: string;
}

const blank = (text: string) => text.trim() === '';

/** The fields of the submit form a problem can be shown beside. */
export type SubmitFormField = 'contact' | 'testingPurpose' | 'otherTestingPurpose' | 'sampleCategory' | 'samples' | 'sampleSpecies' | 'tests';

export interface SubmitFormProblems {
  /** SPEC section 5's messages that apply, in its order ('Please fill in all required fields.', then the tests'). */
  messages: string[];
  /** What to say beside each field that is wrong. */
  fields: Partial<Record<SubmitFormField, string>>;
}

/**
 * Every problem SPEC section 5 finds before a submission, all at once (an empty `messages` means the
 * form may be submitted). Required: the client's username, contact number, e-mail and company, at
 * least one sample row (their descriptions may be empty), a purpose (with its text for Others) and a
 * sample category; and at least one test.
 */
export function submitFormProblems(form: SubmitRequestForm): SubmitFormProblems {
  const fields: SubmitFormProblems['fields'] = {};
  if ([form.representativeName, form.contactNumber, form.emailAddress, form.companyName].some(blank)) {
    fields.contact = 'Your client information is incomplete: your username, contact number, e-mail and company name are needed.';
  }
  if (form.samples.length === 0) fields.samples = 'Add at least one sample.';
  if (form.testingPurpose === '') fields.testingPurpose = 'Choose the purpose of testing.';
  else if (form.testingPurpose === 'Others' && blank(form.otherTestingPurpose)) fields.otherTestingPurpose = 'Specify the other purpose.';
  if (form.sampleCategory === '') fields.sampleCategory = 'Choose the sample category.';
  const messages: string[] = Object.keys(fields).length > 0 ? [SUBMIT_ALERTS.required] : [];
  if (!form.tests.some((code) => ANALYTE_CODES.includes(code))) {
    fields.tests = 'Select at least one test.';
    messages.push(SUBMIT_ALERTS.noTest);
  }
  // Not a missing field: a species of origin the list does not offer (issue 26).
  const unknownSpecies = (form.sampleSpecies ?? []).findIndex((code) => code !== '' && !SPECIES_CODES.includes(code));
  if (unknownSpecies >= 0) {
    fields.sampleSpecies = `Choose the species of origin of sample ${unknownSpecies + 1} from the list, or Not stated.`;
    messages.push(fields.sampleSpecies);
  }
  return { messages, fields };
}

/** The wire payload of a form: every test as a boolean flag, blank dates as null, timestamps of `now`. */
export function buildSubmitPayload(form: SubmitRequestForm, now: Date): z.input<typeof SubmitRequestPayload> {
  const at = now.toISOString();
  const orNull = (text: string) => (blank(text) ? null : text.trim());
  return {
    representativeName: form.representativeName,
    contactNumber: form.contactNumber,
    clientClassification: form.clientClassification,
    ltoNumber: orNull(form.ltoNumber),
    lotBatchNo: orNull(form.lotBatchNo),
    sampleSource: orNull(form.sampleSource),
    productionDate: orNull(form.productionDate),
    expiryDate: orNull(form.expiryDate),
    samplingDate: orNull(form.samplingDate),
    samplerName: orNull(form.samplerName),
    sample: form.samples.map((description, i) => {
      const species = form.sampleSpecies?.[i] ?? '';
      return { sampleId: i + 1, sampleTypeDescription: description, ...(species ? { species } : {}) };
    }),
    testingPurpose: form.testingPurpose as Purpose,
    otherTestingPurpose: form.testingPurpose === 'Others' ? orNull(form.otherTestingPurpose) : null,
    sampleCategory: form.sampleCategory as SampleCategory,
    submissionDate: at,
    createdAt: at,
    updatedAt: at,
    ...Object.fromEntries(ANALYTE_CODES.map((code) => [code, form.tests.includes(code)])),
    ...astPanelsFor(form.tests, { gramPositiveAst: orNull(form.gramPositiveAst), gramNegativeAst: orNull(form.gramNegativeAst) }, null),
  };
}
