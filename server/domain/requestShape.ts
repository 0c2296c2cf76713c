// The request as the API reads it (SPEC section 3, "Request (as read)"): stored columns plus one
// boolean flag per family, group and test. Pure, so the UI can rely on the same names.
import { ANALYTES, findAnalyte, type Family, type Group } from './catalog.js';
import type { RequestStatus } from './requestStatus.js';

export interface RequestRecord {
  requestId: number;
  controlNumber: string | null;
  clientUserId: number;
  submissionDate: string;
  requestStatus: RequestStatus;
  representativeName: string;
  contactNumber: string;
  emailAddress: string;
  companyName: string;
  clientClassification: string;
  ltoNumber: string | null;
  /** The client's company address as its profile says now (not part of the submitted snapshot). */
  companyAddress: string | null;
  sampleCategory: string;
  lotBatchNo: string | null;
  sampleSource: string | null;
  productionDate: string | null;
  expiryDate: string | null;
  samplingDate: string | null;
  samplerName: string | null;
  testingPurpose: string;
  otherTestingPurpose: string | null;
  gramPositiveAstText: string | null;
  gramNegativeAstText: string | null;
  estimatedFee: number;
  dueDate: string | null;
  /** Codes of the ticked tests, in catalog order. */
  tests: string[];
}

export type RequestFlags = Record<string, boolean>;

/** SPEC section 3's family flags (microbio, chem, molBio) and the group flags within them. */
export interface FamilyFlags {
  microbio: boolean;
  chem: boolean;
  molBio: boolean;
  microbial: boolean;
  elisa: boolean;
  speciesIdentification: boolean;
}

export function familyFlags(tests: readonly string[]): FamilyFlags {
  const families = new Set<Family>();
  const groups = new Set<Group>();
  for (const code of tests) {
    const a = findAnalyte(code);
    if (a) {
      families.add(a.family);
      groups.add(a.group);
    }
  }
  return {
    microbio: families.has('microbio'),
    chem: families.has('chem'),
    molBio: families.has('molBio'),
    microbial: groups.has('chemMicrobial'),
    elisa: groups.has('chemElisa'),
    speciesIdentification: groups.has('molBio'),
  };
}

/** The boolean flags of SPEC section 3 for a set of ticked tests. */
export function requestFlags(tests: readonly string[], gram: { positive?: string | null; negative?: string | null } = {}): RequestFlags {
  const ticked = new Set(tests);
  const flags: RequestFlags = {};
  for (const a of ANALYTES) flags[a.code] = ticked.has(a.code);
  Object.assign(flags, familyFlags(tests));
  flags.gramPositiveAst = Boolean(gram.positive?.trim());
  flags.gramNegativeAst = Boolean(gram.negative?.trim());
  return flags;
}

/** A request plus its flags: the wide shape the API answers. Flags are read as `view[code] === true`. */
export type RequestView = RequestRecord & Record<string, unknown>;

export interface SampleRecord {
  sampleId: number;
  /** 1..n, in row order. */
  position: number;
  sampleTypeDescription: string;
  /** Issue 26: the species the sample's meat comes from (a species code of the catalogue); null: not stated. */
  species: string | null;
}

/** The request as read with its samples in row order (GET requests/detail/{id} and the desk's reads). */
export type RequestWithSamples = RequestView & { samples: SampleRecord[] };

/**
 * One request as its details screens read it (GET requests/detail/{id}, requests/pendingrequest/{id}):
 * with its samples and, once rejected, the reason staff gave (null when none was given).
 */
export type RequestDetail = RequestWithSamples & { rejectionReason: string | null };

/**
 * A row of the work lists (requests released, for release, for testing): what their screens show, not
 * the wide "as read" shape; the whole request is one GET requests/detail/{requestId} away.
 */
export interface RequestListRow extends FamilyFlags {
  requestId: number;
  controlNumber: string | null;
  /** ISO timestamp. */
  submissionDate: string;
  requestStatus: RequestStatus;
}

/** A row of GET requests/released (newest release first). */
export interface ReleasedRow extends RequestListRow {
  /** ISO timestamp. */
  releasedAt: string;
}

/** A row of the client's track list (GET requests/clientrequest/{userId}). */
export interface ClientRequestRow {
  requestId: number;
  controlNumber: string | null;
  /** ISO timestamp. */
  submissionDate: string;
  requestStatus: RequestStatus;
}

export function presentRequest(record: RequestRecord): RequestView {
  return { ...requestFlags(record.tests, { positive: record.gramPositiveAstText, negative: record.gramNegativeAstText }), ...record };
}

/** Families of the ticked tests, in catalog order (for "Tests Selected"). */
export function familiesOf(tests: readonly string[]): Family[] {
  const families: Family[] = [];
  for (const a of ANALYTES) if (tests.includes(a.code) && !families.includes(a.family)) families.push(a.family);
  return families;
}

/** Control numbers are `YYYY-NNNN`, numbered per year without gaps. */
export function formatControlNumber(year: number, sequence: number): string {
  return `${year}-${String(sequence).padStart(4, '0')}`;
}

export interface PlannedAnalysis {
  sampleId: number;
  testCode: string;
  family: Family;
  group: Group;
}

/** The analyses an approved request needs: one per sample and ticked test. */
export function plannedAnalyses(sampleIds: readonly number[], tests: readonly string[]): PlannedAnalysis[] {
  const analytes = ANALYTES.filter((a) => tests.includes(a.code));
  return sampleIds.flatMap((sampleId) => analytes.map((a) => ({ sampleId, testCode: a.code, family: a.family, group: a.group })));
}

/** The month (YYYY-MM) a result counts in: its analysis date's, or the save time's when it has none. */
export function reportMonth(analysisDate: string | null, savedAt: string): string {
  return (analysisDate ?? savedAt).slice(0, 7);
}
