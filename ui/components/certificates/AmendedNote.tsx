import '../../styles/findings.css';
import { formatTimestampDay } from '../requests/format.js';
import type { AmendmentNote } from './amendmentNotes.js';

const reading = (r: AmendmentNote['before']) => (r ? [r.value ?? '—', r.remark].filter(Boolean).join(', ') : 'no result');

/**
 * The mark of an amended result, wherever results are read (the desk's lists, the client's Results,
 * the testers' Test Results): the report that amended it, when and by whom, the old and new reading,
 * and why.
 */
export function AmendedNote({ note }: { note: AmendmentNote }) {
  return (
    <p className="amended-note">
      <strong>
        <span aria-hidden="true">✎ </span>Amended
      </strong>{' '}
      in {note.reportNumber} on {formatTimestampDay(note.issuedAt)} by {note.signerName}: was {reading(note.before)}, now {reading(note.after)}.
      {note.reason && <> Reason: {note.reason}</>}
    </p>
  );
}
