// Issued reports (certificates of analysis): issuing one at release or amendment, reading them for a
// download, listing a request's issues, and the public verification of a token. A report row is
// written once and never changed; "amended" is read from the report that replaces it, "withdrawn"
// from its row in report_withdrawals.
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { catalogOrder, findAnalyte } from '../../domain/catalog.js';
import {
  amendmentChanges,
  amendmentNotesOf,
  reportNumber,
  reportStatus,
  type AmendmentNote,
  type IssuedReport,
  type ReportContent,
  type ReportReceipt,
  type ReportSummary,
  type ReportWithdrawal,
  type Verification,
} from '../../domain/certificate.js';
import { can, hidesMissing, visibleGroups, type Actor } from '../../domain/policies.js';
import { groupsOfTests, type Remark } from '../../domain/resultShape.js';
import { disciplineOf } from '../../domain/roles.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import { recordAudit } from '../audit.js';
import { LIMITS, limited } from '../rateLimits.js';
import { findReceipt } from '../requests/reception.js';
import type { Signer } from './signature.js';
import { judgedOf, JUDGED_COLUMNS, type JudgedRow } from '../../db/analyses.js';
import { reportSpecification, SPECIFICATION_COLUMNS, type SpecificationColumns } from '../../db/specificationRows.js';

export interface ReportDeps {
  db: Knex;
  clock: Clock;
}

/** 128 random bits or more, URL-safe: the certificate's QR code carries it. */
const newVerificationToken = () => crypto.randomBytes(24).toString('base64url');

/**
 * The request as a report prints it, frozen now: one query for the request with its client's address,
 * one for samples and analyses, one for the sample receipt.
 */
async function reportContent(trx: Knex.Transaction, requestId: number): Promise<ReportContent> {
  const r = await trx('requests as q').leftJoin('clients as c', 'c.user_id', 'q.client_user_id').where('q.id', requestId).first('q.*', 'c.address as client_address');
  const received = await findReceipt(trx, requestId);
  const receipt: ReportReceipt | null = received && {
    receivedAt: received.receivedAt,
    condition: received.condition,
    reason: received.reason,
    temperatureC: received.temperatureC,
  };
  type Row = Partial<JudgedRow> & Partial<SpecificationColumns> & {
    position: number; description: string; species: string | null; test_code: string | null; value: string | null; remark: string | null; analysis_date: string | null;
  };
  const rows: Row[] = await trx('samples as s')
    .leftJoin('analyses as a', 'a.sample_id', 's.id')
    .leftJoin('specifications as sp', 'sp.id', 'a.specification_id')
    .where('s.request_id', requestId)
    .orderBy('s.position')
    .select(
      's.position', 's.sample_type_description as description', 's.species', 'a.test_code', 'a.value', 'a.remark', 'a.analysis_date',
      ...JUDGED_COLUMNS.map((c) => `a.${c}`), ...SPECIFICATION_COLUMNS.map((c) => `sp.${c} as spec_${c}`),
    );
  const samples = new Map<number, { description: string; species: string | null }>();
  for (const row of rows) samples.set(Number(row.position), { description: row.description, species: row.species ?? null });
  const analyses = rows
    .filter((row) => row.test_code !== null)
    .map((row) => ({
      samplePosition: Number(row.position),
      testCode: row.test_code!,
      value: row.value,
      remark: row.remark as Remark | null,
      analysisDate: row.analysis_date,
      ...judgedOf(row),
      specification: row.specification_id == null ? null : reportSpecification(row),
    }))
    .sort((a, b) => a.samplePosition - b.samplePosition || catalogOrder(a.testCode) - catalogOrder(b.testCode));
  return {
    controlNumber: r.control_number,
    client: {
      companyName: r.company_name,
      representativeName: r.representative_name,
      contactNumber: r.contact_number,
      emailAddress: r.email_address,
      classification: r.client_classification,
      ltoNumber: r.lto_number,
      address: r.client_address ?? null,
    },
    testingPurpose: r.other_testing_purpose ?? r.testing_purpose,
    sampleCategory: r.sample_category,
    lotBatchNo: r.lot_batch_no,
    sampleSource: r.sample_source,
    samplerName: r.sampler_name,
    productionDate: r.production_date,
    expiryDate: r.expiry_date,
    samplingDate: r.sampling_date,
    submissionDate: String(r.submission_date).slice(0, 10),
    receipt,
    samples: [...samples].map(([position, sample]) => ({ position, ...sample })),
    analyses,
  };
}

export interface IssueInput {
  requestId: number;
  signer: Signer;
  meaning: string;
  /** The report an amendment replaces, and why. */
  replaces?: { id: number; version: number; reportNumber: string };
  reason?: string;
  ip?: string | null;
}

/** Issues the next report of a request in `trx` (release or amendment), audited. */
export async function issueReport(trx: Knex.Transaction, clock: Clock, input: IssueInput): Promise<{ reportNumber: string; version: number; issuedAt: string }> {
  const content = await reportContent(trx, input.requestId);
  const version = (input.replaces?.version ?? 0) + 1;
  const number = reportNumber(content.controlNumber, version);
  const issuedAt = clock.now().toISOString();
  await trx('reports').insert({
    request_id: input.requestId,
    version,
    report_number: number,
    replaces_report_id: input.replaces?.id ?? null,
    verification_token: newVerificationToken(),
    issued_at: issuedAt,
    signed_by: input.signer.id,
    signer_name: input.signer.name,
    signature_meaning: input.meaning,
    amendment_reason: input.reason ?? null,
    content: JSON.stringify(content),
  });
  await recordAudit(trx, clock, {
    actorUserId: input.signer.id,
    action: 'report.issue',
    requestId: input.requestId,
    details: { reportNumber: number, replaces: input.replaces?.reportNumber ?? null, meaning: input.meaning, reason: input.reason ?? null },
    ip: input.ip,
  });
  return { reportNumber: number, version, issuedAt };
}

interface ReportRow {
  id: number;
  version: number;
  report_number: string;
  issued_at: string;
  signer_name: string;
  signature_meaning: string;
  amendment_reason: string | null;
  verification_token: string;
  content: string;
  replaces: string | null;
  replaced_by: string | null;
  withdrawn_at: string | null;
  withdrawn_by_name: string | null;
  withdrawal_reason: string | null;
}

/** Reports with the numbers of the reports they replace and that replaced them, and their withdrawal. */
function reportsQuery(db: Knex | Knex.Transaction) {
  return db('reports as r')
    .leftJoin('reports as p', 'p.id', 'r.replaces_report_id')
    .leftJoin('reports as n', 'n.replaces_report_id', 'r.id')
    .leftJoin('report_withdrawals as w', 'w.report_id', 'r.id')
    .select(
      'r.id', 'r.version', 'r.report_number', 'r.issued_at', 'r.signer_name', 'r.signature_meaning', 'r.amendment_reason',
      'r.verification_token', 'r.content', 'p.report_number as replaces', 'n.report_number as replaced_by',
      'w.withdrawn_at', 'w.signer_name as withdrawn_by_name', 'w.reason as withdrawal_reason',
    );
}

function withdrawalOf(row: ReportRow): ReportWithdrawal | null {
  return row.withdrawn_at ? { at: row.withdrawn_at, signerName: row.withdrawn_by_name!, reason: row.withdrawal_reason! } : null;
}

function identityOf(row: ReportRow): Omit<ReportSummary, 'status' | 'changes'> {
  return {
    reportNumber: row.report_number,
    version: Number(row.version),
    issuedAt: row.issued_at,
    signerName: row.signer_name,
    signatureMeaning: row.signature_meaning,
    replaces: row.replaces,
    amendmentReason: row.amendment_reason,
    withdrawal: withdrawalOf(row),
  };
}

/** An issued report; an amendment's row also carries the content of the report it replaces, to name what changed. */
function toIssuedReport(row: ReportRow & { replaced_content: string | null }): IssuedReport {
  const content = JSON.parse(row.content) as ReportContent;
  return {
    ...identityOf(row),
    replacedBy: row.replaced_by,
    verificationToken: row.verification_token,
    content,
    changes: row.replaced_content ? amendmentChanges(JSON.parse(row.replaced_content) as ReportContent, content) : [],
  };
}

/**
 * Who may read a request's reports: the desk, and the owning client (403 otherwise, whether or not
 * the request exists); the request must be released (409). Its amendment marks (`amendments:read`):
 * also the testers of the request's disciplines.
 */
async function authorizeReportRead(
  db: Knex | Knex.Transaction,
  actor: Actor,
  requestId: number,
  action: 'certificate:read' | 'amendments:read' = 'certificate:read',
): Promise<void> {
  const request = await db('requests').where('id', requestId).first('client_user_id', 'status');
  if (!request) {
    if (hidesMissing(actor)) throw forbidden();
    throw notFound(`There is no request ${requestId}.`);
  }
  // A tester's reach is the request's tests of its discipline (asked only of testers).
  const groups = disciplineOf(actor.role) === null ? [] : groupsOfTests(await db('request_tests').where('request_id', requestId).pluck('test_code'));
  if (!can(actor, action, { clientUserId: Number(request.client_user_id), groups })) throw forbidden();
  if (request.status !== 'RELEASED') throw conflict(NOT_RELEASED);
}

const NOT_RELEASED = 'This request has not been released: its certificate is issued on release.';

/**
 * The report of a released request to print: its latest issue, or issue `version`; audited as a
 * download by `reader` (null: the operator, through labctl). Callers check who may read it.
 */
export async function readIssuedReport(
  deps: ReportDeps,
  requestId: number,
  version: number | undefined,
  reader: { actorUserId: number | null; ip?: string | null },
): Promise<IssuedReport> {
  const query = reportsQuery(deps.db).select('p.content as replaced_content').where('r.request_id', requestId);
  if (version === undefined) query.whereNull('n.id');
  else query.where('r.version', version);
  const row: (ReportRow & { replaced_content: string | null }) | undefined = await query.first();
  if (!row) {
    // Reports exist only for released requests: say which reason applies.
    const request = await deps.db('requests').where('id', requestId).first('status');
    if (!request) throw notFound(`There is no request ${requestId}.`);
    if (request.status !== 'RELEASED') throw conflict(NOT_RELEASED);
    throw version === undefined
      ? conflict('This request was released before certificates were issued: amend its results to issue one.')
      : notFound(`This request has no report version ${version}.`);
  }
  const report = toIssuedReport(row);
  await recordAudit(deps.db, deps.clock, {
    actorUserId: reader.actorUserId,
    action: 'report.download',
    requestId,
    details: { reportNumber: report.reportNumber },
    ip: reader.ip,
  });
  return report;
}

/** GET /requests/{id}/certificate.pdf: the client its own, the desk any; released requests only. */
export async function reportForDownload(
  deps: ReportDeps,
  actor: Actor,
  requestId: number,
  version: number | undefined,
  ip?: string | null,
): Promise<IssuedReport> {
  await authorizeReportRead(deps.db, actor, requestId);
  return readIssuedReport(deps, requestId, version, { actorUserId: actor.id, ip });
}

/** Every issued report of a request, first issue first (one query), each amendment with the results it changed. */
async function reportSummaries(db: Knex, requestId: number): Promise<ReportSummary[]> {
  const rows: ReportRow[] = await reportsQuery(db).where('r.request_id', requestId).orderBy('r.version');
  const contents = new Map(rows.map((row) => [row.report_number, JSON.parse(row.content) as ReportContent]));
  return rows.map((row) => {
    const previous = row.replaces ? contents.get(row.replaces) : undefined;
    return {
      ...identityOf(row),
      status: reportStatus(row.replaced_by, row.withdrawn_at),
      changes: previous ? amendmentChanges(previous, contents.get(row.report_number)!) : [],
    };
  });
}

/** Every amended result of a request, for the operator (labctl requests show); none before release. */
export async function amendmentNotesOfRequest(db: Knex, requestId: number): Promise<AmendmentNote[]> {
  return amendmentNotesOf(await reportSummaries(db, requestId));
}

/** GET /requests/{id}/reports: the client its own, the desk any; released requests only. */
export async function listReports(deps: ReportDeps, actor: Actor, requestId: number): Promise<ReportSummary[]> {
  await authorizeReportRead(deps.db, actor, requestId);
  return reportSummaries(deps.db, requestId);
}

/**
 * GET /requests/{id}/amendments: every amended result of a released request with its old and new
 * reading, report, signer, time and reason. The client its own and the desk any read them all; a
 * tester of the request's disciplines reads those of its own discipline's tests only, and nothing
 * else of the certificate (no withdrawal, no other test's change, no PDF).
 */
export async function listAmendments(deps: ReportDeps, actor: Actor, requestId: number): Promise<AmendmentNote[]> {
  await authorizeReportRead(deps.db, actor, requestId, 'amendments:read');
  const notes = amendmentNotesOf(await reportSummaries(deps.db, requestId));
  const groups = visibleGroups(actor);
  return groups ? notes.filter((note) => groups.some((g) => findAnalyte(note.testCode)?.group === g)) : notes;
}

export const UNKNOWN_TOKEN = 'No certificate has this verification code. Check the address printed under the QR code.';
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,64}$/;

/** GET /verify/{token}: public and rate-limited per address; a look-up that finds a certificate is audited. */
export async function verifyReport(deps: ReportDeps, token: string, ip: string): Promise<Verification> {
  return limited(deps, LIMITS.verify, { ip }, async () => {
    const row = TOKEN_SHAPE.test(token)
      ? await deps.db('reports as r')
        .join('requests as q', 'q.id', 'r.request_id')
        .leftJoin('reports as n', 'n.replaces_report_id', 'r.id')
        .leftJoin('report_withdrawals as w', 'w.report_id', 'r.id')
        .where('r.verification_token', token)
        .first('r.request_id', 'r.report_number', 'r.issued_at', 'q.control_number', 'n.report_number as replaced_by', 'w.withdrawn_at')
      : undefined;
    // Unknown tokens are only counted in the rate-limit store (bounded: a row per address and
    // window, pruned after a day); the append-only audit log records look-ups of real certificates.
    if (!row) throw notFound(UNKNOWN_TOKEN);
    await recordAudit(deps.db, deps.clock, {
      actorUserId: null,
      action: 'report.verify',
      requestId: Number(row.request_id),
      details: { reportNumber: row.report_number, found: true },
      ip,
    });
    return {
      reportNumber: row.report_number,
      controlNumber: row.control_number,
      issueDate: String(row.issued_at).slice(0, 10),
      status: reportStatus(row.replaced_by, row.withdrawn_at),
    };
  });
}
