import '../../styles/findings.css';
import { OUTCOME_TEXT } from '../../../server/domain/specifications.js';
import { formatTimestampDay } from '../requests/format.js';
import type { AmendmentNote } from './amendmentNotes.js';

/** One side of an amended result: its value and remark, and its statement of conformity when the amendment changed that. */
function reading(r: AmendmentNote['before'], statement: boolean): string {
  if (!r) return 'no result';
  const conformity = statement ? `statement: ${r.conformity ? OUTCOME_TEXT[r.conformity] : 'none'}` : null;
  return [r.value ?? '—', r.remark, conformity].filter(Boolean).join(', ');
}

/**
 * The mark of an amended result, wherever results are read (the desk's lists, the client's Results,
 * the testers' Test Results): the report that amended it, when and by whom, the old and new reading,
 * and why.
 */
export function AmendedNote({ note }: { note: AmendmentNote }) {
  // A re-evaluation (issue 26) changes the statement alone: the note names it.
  const statement = (note.before?.conformity ?? null) !== (note.after?.conformity ?? null);
  return (
    <p className="amended-note">
      <strong>
        <span aria-hidden="true">✎ </span>Amended
      </strong>{' '}
      in {note.reportNumber} on {formatTimestampDay(note.issuedAt)} by {note.signerName}: was {reading(note.before, statement)}, now {reading(note.after, statement)}.
      {note.reason && <> Reason: {note.reason}</>}
    </p>
  );
}
