// The certificate of analysis (ISO/IEC 17025:2017 7.8) as data: what a report prints, how reports are
// numbered, and what public verification may say about one. Pure: the services store and read it, the
// PDF module lays it out.
import { z } from 'zod';
import { speciesLabel } from './catalog.js';
import { CONDITION_LABELS, isTooWarm, MICROBIOLOGY_MAX_TEMPERATURE_C, type ReceiptCondition } from './reception.js';
import { ResultFields, type Remark } from './resultShape.js';
import { measurementText, OUTCOME_TEXT, type Decision, type Measurement, type Outcome } from './specifications.js';

/** The meaning of the release signature (21 CFR 11.50), printed and stored with it. */
export const RELEASE_MEANING = 'Results reviewed and approved for release';
/** The meaning of an amendment's signature. */
export const AMENDMENT_MEANING = 'Amended results reviewed and approved for release';

/** The meaning of a withdrawal's signature: the report must no longer be relied on. */
export const WITHDRAWAL_MEANING = 'Report withdrawn';

export const RELATES_ONLY_STATEMENT = 'Results relate only to the items tested.';

export const MAX_AMENDMENT_REASON = 1000;
export const MAX_WITHDRAWAL_REASON = 1000;

/** What a report prints for a client who has given no postal address (7.8.2.1 e). */
export const ADDRESS_NOT_ON_FILE = 'Address not on file';
/** What a report prints when staff recorded no sample receipt: no date or condition is invented. */
export const RECEIPT_NOT_RECORDED = 'Not recorded (no sample receipt was entered)';

/** A report's number: the control number and the issue, e.g. 2026-0012-R1 (R2 is its first amendment). */
export function reportNumber(controlNumber: string, version: number): string {
  return `${controlNumber}-R${version}`;
}

/** "Amendment 1 to 2026-0012-R1": how an amended report names the report it replaces (7.8.8.2). */
export function amendmentLabel(version: number, replacedNumber: string): string {
  return `Amendment ${version - 1} to ${replacedNumber}`;
}

/** The public page a certificate's QR code opens. */
export const verificationUrl = (base: string, token: string) => `${base.replace(/\/+$/, '')}/verify/${token}`;

export type ReportStatus = 'valid' | 'amended' | 'withdrawn';

/** A report is valid until a later report replaces it; a withdrawn one says so whatever replaced it. */
export function reportStatus(replacedByNumber: string | null, withdrawnAt: string | null = null): ReportStatus {
  if (withdrawnAt) return 'withdrawn';
  return replacedByNumber ? 'amended' : 'valid';
}

/** A report number as the calls and labctl take it, e.g. 2026-0012-R1. */
export const ReportNumberParam = z
  .string('must be a report number such as 2026-0012-R1')
  .max(40, 'must be a report number such as 2026-0012-R1')
  .regex(/^\d{4}-\d{1,10}-R\d{1,5}$/, 'must be a report number such as 2026-0012-R1');

/** One analysis as a report prints it. */
export interface ReportAnalysis {
  samplePosition: number;
  testCode: string;
  value: string | null;
  remark: Remark | null;
  analysisDate: string | null;
  /** Issue 26 (absent in reports issued before it): the measurement, the decision and the specification it used. */
  measurement?: Measurement | null;
  decision?: Decision | null;
  specification?: ReportSpecification | null;
}

/** The specification a decision used, as the report prints it (7.8.6). */
export interface ReportSpecification {
  version: number;
  requirement: string;
  source: string;
}

/** 'Chloramphenicol 0.4 µg/kg ± 0.05 (k = 2)' -> the value with its unit and U, as the statement of conformity prints it. */
export function measuredText(a: Pick<ReportAnalysis, 'value' | 'measurement'>): string {
  return a.measurement ? measurementText(a.measurement) : (a.value ?? '-');
}

/** What a report prints about the request, frozen when it is issued. */
export interface ReportContent {
  controlNumber: string;
  client: {
    companyName: string;
    representativeName: string;
    contactNumber: string;
    emailAddress: string;
    classification: string;
    ltoNumber: string | null;
    /** The company's postal address from the client profile; absent in reports issued before it existed. */
    address?: string | null;
  };
  testingPurpose: string;
  sampleCategory: string;
  lotBatchNo: string | null;
  sampleSource: string | null;
  samplerName: string | null;
  productionDate: string | null;
  expiryDate: string | null;
  samplingDate: string | null;
  /** Date the client submitted the request, YYYY-MM-DD. */
  submissionDate?: string;
  /** The sample reception record (issue 15); null (or absent in older reports) when none was entered. */
  receipt?: ReportReceipt | null;
  /** species: the sample's species of origin (issue 26), a species code; null or absent (older reports): not stated. */
  samples: Array<{ position: number; description: string; species?: string | null }>;
  analyses: ReportAnalysis[];
}

/** How the samples arrived, as staff recorded it at reception. */
export interface ReportReceipt {
  receivedAt: string;
  condition: ReceiptCondition;
  reason: string | null;
  temperatureC: number | null;
}

/** A report's withdrawal: when, by whom and why (the signature means WITHDRAWAL_MEANING). */
export interface ReportWithdrawal {
  at: string;
  signerName: string;
  reason: string;
}

/** A report as a request's list of issues shows it. */
export interface ReportSummary {
  reportNumber: string;
  version: number;
  issuedAt: string;
  signerName: string;
  signatureMeaning: string;
  /** The report this one replaces (amendments only) and why. */
  replaces: string | null;
  amendmentReason: string | null;
  withdrawal: ReportWithdrawal | null;
  status: ReportStatus;
  /** An amendment's changed results, against the report it replaces (empty for a first issue). */
  changes: AmendmentChange[];
}

/** One result an amendment changed: where, and its reported value before and after. */
export interface AmendmentChange {
  samplePosition: number;
  testCode: string;
  before: AmendedReading | null;
  after: AmendedReading | null;
}

/** What an amendment compares: the reported result, and (issue 26) the statement of conformity where the report made one. */
export type AmendedReading = Pick<ReportAnalysis, 'value' | 'remark' | 'analysisDate'> & { conformity?: Outcome | null };

/** The results `next` reports differently from `previous` (an amendment against what it replaces), in `next`'s order. */
export function amendmentChanges(previous: Pick<ReportContent, 'analyses'>, next: Pick<ReportContent, 'analyses'>): AmendmentChange[] {
  const keyOf = (a: ReportAnalysis) => `${a.samplePosition}:${a.testCode}`;
  const reading = (a: ReportAnalysis | undefined): AmendedReading | null => (a ? { value: a.value, remark: a.remark, analysisDate: a.analysisDate } : null);
  // A statement of conformity (issue 26) is compared where either report states one.
  const withConformity = (r: AmendedReading | null, a: ReportAnalysis | undefined, judged: boolean) => (r && judged ? { ...r, conformity: a?.decision?.outcome ?? null } : r);
  const before = new Map(previous.analyses.map((a) => [keyOf(a), a]));
  const changes: AmendmentChange[] = [];
  for (const a of next.analyses) {
    const was = before.get(keyOf(a));
    const judged = Boolean(was?.decision || a.decision);
    const old = withConformity(reading(was), was, judged);
    const now = withConformity(reading(a), a, judged);
    if (JSON.stringify(old) !== JSON.stringify(now)) changes.push({ samplePosition: a.samplePosition, testCode: a.testCode, before: old, after: now });
  }
  return changes;
}

/**
 * An amended result as every reader is told of it: the change (old and new reading), the report that
 * made it, who signed it, when and why. The desk and the client read them from a request's reports; a
 * tester reads those of its own discipline's tests only (GET requests/{id}/amendments).
 */
export interface AmendmentNote extends AmendmentChange {
  reportNumber: string;
  signerName: string;
  issuedAt: string;
  reason: string | null;
}

/** Every amended result of a request's reports (first issue first), each amendment's changes in its order. */
export function amendmentNotesOf(reports: ReadonlyArray<Pick<ReportSummary, 'reportNumber' | 'signerName' | 'issuedAt' | 'amendmentReason' | 'changes'>>): AmendmentNote[] {
  return reports.flatMap((report) =>
    report.changes.map((change) => ({ ...change, reportNumber: report.reportNumber, signerName: report.signerName, issuedAt: report.issuedAt, reason: report.amendmentReason })),
  );
}

/** How an amendment's page prints one side of a change: the value, the finding, the statement, the date. */
export function amendedReadingText(reading: AmendedReading | null): string {
  if (!reading) return 'not reported';
  return [
    reading.value ?? '-',
    findingText(reading.remark),
    reading.conformity !== undefined ? `statement: ${reading.conformity ? OUTCOME_TEXT[reading.conformity] : 'none'}` : '',
    reading.analysisDate ? `analysed ${reading.analysisDate}` : '',
  ].filter(Boolean).join('; ');
}

/** A report as issued: its identity and signature, its place in the amendment chain (with what an amendment changed), its content. */
export interface IssuedReport extends Omit<ReportSummary, 'status'> {
  /** The report that replaced this one, if any. */
  replacedBy: string | null;
  verificationToken: string;
  content: ReportContent;
}

/** What the public verification page may say about a report, and nothing more. */
export interface Verification {
  reportNumber: string;
  controlNumber: string;
  issueDate: string;
  status: ReportStatus;
}

/** "2026-03-05 09:30 UTC": a stored ISO timestamp as a report prints it. */
export const printedTime = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** The receipt's date and time, or the honest "not recorded". */
export const receiptDateText = (receipt: ReportReceipt | null | undefined) => (receipt ? printedTime(receipt.receivedAt) : RECEIPT_NOT_RECORDED);

/** "Acceptable" or "Not acceptable (leaking container)"; the reason is printed only when given. */
/** A sample as the certificate's Samples table describes it: with its species of origin where stated (issue 26). */
export function sampleDescriptionText(sample: ReportContent['samples'][number]): string {
  return sample.species ? `${sample.description} (species of origin: ${speciesLabel(sample.species)})`.trimStart() : sample.description;
}

export function receiptConditionText(receipt: ReportReceipt | null | undefined): string {
  if (!receipt) return RECEIPT_NOT_RECORDED;
  return CONDITION_LABELS[receipt.condition] + (receipt.reason ? ` (${receipt.reason})` : '');
}

/** "4 °C", "12 °C (above the 10 °C limit for microbiology)", or "not measured". */
export function receiptTemperatureText(receipt: ReportReceipt | null | undefined): string {
  if (!receipt) return RECEIPT_NOT_RECORDED;
  if (receipt.temperatureC === null) return 'not measured';
  return `${receipt.temperatureC} °C${isTooWarm(receipt.temperatureC) ? ` (above the ${MICROBIOLOGY_MAX_TEMPERATURE_C} °C limit for microbiology)` : ''}`;
}

/** The first and last analysis dates of a report, for "Date(s) of analysis". */
export function analysisPeriod(analyses: readonly ReportAnalysis[]): string {
  const dates = analyses.map((a) => a.analysisDate).filter((d): d is string => Boolean(d)).sort();
  if (dates.length === 0) return 'not recorded';
  return dates[0] === dates[dates.length - 1] ? dates[0] : `${dates[0]} to ${dates[dates.length - 1]}`;
}

/** How a finding reads on a report: a positive finding is a warning, never good news. */
export function findingText(remark: Remark | null): string {
  if (remark === 'positive') return 'WARNING: Positive (+)';
  if (remark === 'negative') return 'Negative (-)';
  return '';
}

/** A signature is the account's password, typed again. */
export const SignaturePassword = z.string('enter your password to sign').min(1, 'enter your password to sign').max(200, 'is too long');

/** A withdrawal: the reason, and the signer's password. */
export const WithdrawalInput = z.object({
  reason: z.string('give the reason for the withdrawal').trim().min(1, 'give the reason for the withdrawal').max(MAX_WITHDRAWAL_REASON, `use at most ${MAX_WITHDRAWAL_REASON} characters`),
  password: SignaturePassword,
});
export type WithdrawalInput = z.output<typeof WithdrawalInput>;

/** An amendment (7.8.8): the corrected results, the reason, and the signer's password. */
export const AmendmentInput = z.object({
  reason: z.string('give the reason for the amendment').trim().min(1, 'give the reason for the amendment').max(MAX_AMENDMENT_REASON, `use at most ${MAX_AMENDMENT_REASON} characters`),
  password: SignaturePassword,
  results: z
    .array(
      z.object({
        sampleId: z.number('must be a sample id').int().min(1).max(2_147_483_647),
        testCode: z.string('must be a test code').max(40),
        ...ResultFields.shape,
      }),
      'list the corrected results',
    )
    .min(1, 'list at least one corrected result')
    .max(500, 'list at most 500 results'),
});
export type AmendmentInput = z.output<typeof AmendmentInput>;
