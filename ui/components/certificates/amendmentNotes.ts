import type { AmendmentChange, ReportSummary } from '../../../server/domain/certificate.js';

/** What a reader is told about an amended result: old and new reading, who signed, when and why. */
export interface AmendmentNote extends AmendmentChange {
  reportNumber: string;
  signerName: string;
  issuedAt: string;
  reason: string | null;
}

export const amendmentKey = (samplePosition: number, testCode: string) => `${samplePosition}:${testCode}`;

/** Per sample and test, the latest amendment that changed it (reports come first issue first). */
export function amendmentNotes(reports: readonly ReportSummary[]): Map<string, AmendmentNote> {
  const notes = new Map<string, AmendmentNote>();
  for (const report of reports) {
    for (const change of report.changes) {
      notes.set(amendmentKey(change.samplePosition, change.testCode), {
        ...change,
        reportNumber: report.reportNumber,
        signerName: report.signerName,
        issuedAt: report.issuedAt,
        reason: report.amendmentReason,
      });
    }
  }
  return notes;
}
