import { amendmentNotesOf, type AmendmentNote, type ReportSummary } from '../../../server/domain/certificate.js';

/** What a reader is told about an amended result: old and new reading, who signed, when and why. */
export type { AmendmentNote };

export const amendmentKey = (samplePosition: number, testCode: string) => `${samplePosition}:${testCode}`;

/** Per sample and test, the latest amendment that changed it (notes come first amendment first). */
export function amendmentsByResult(notes: readonly AmendmentNote[]): Map<string, AmendmentNote> {
  const byResult = new Map<string, AmendmentNote>();
  for (const note of notes) byResult.set(amendmentKey(note.samplePosition, note.testCode), note);
  return byResult;
}

/** Per sample and test, the latest amendment that changed it, from a request's reports (first issue first). */
export function amendmentNotes(reports: readonly ReportSummary[]): Map<string, AmendmentNote> {
  return amendmentsByResult(amendmentNotesOf(reports));
}
