import { useId } from 'react';
import { findAnalyte } from '../../../server/domain/catalog.js';
import type { AnalyteResult } from '../../../server/domain/resultShape.js';
import { OUTCOME_TEXT, type Decision } from '../../../server/domain/specifications.js';
import { DecisionBadge } from '../specifications/DecisionBadge.js';
import { amendmentKey, type AmendmentNote } from '../certificates/amendmentNotes.js';
import { formatDay, formatTimestampDay } from './format.js';
import { RemarkBadge } from './RemarkBadge.js';

export interface SampleResultsProps {
  /** 1-based number of the sample in its request. */
  position: number;
  description?: string;
  /** One row per test, in this order. */
  results: ReadonlyArray<AnalyteResult & { testCode: string }>;
  /** Amended results (by amendmentKey), marked with their old reading, who, when and why. */
  amendments?: ReadonlyMap<string, AmendmentNote>;
  /** The statement of conformity of each test (by test code), where its result was judged (issue 26). */
  decisions?: ReadonlyMap<string, Decision>;
}

/** One side of an amended result: its value and remark, and its statement of conformity when the amendment changed that. */
function reading(r: AmendmentNote['before'], statement: boolean): string {
  if (!r) return 'no result';
  const conformity = statement ? `statement: ${r.conformity ? OUTCOME_TEXT[r.conformity] : 'none'}` : null;
  return [r.value ?? '—', r.remark, conformity].filter(Boolean).join(', ');
}

function AmendedNote({ note }: { note: AmendmentNote }) {
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

/**
 * One sample's results as a table: Test, Result, Remark, Analysis Date (the client's results and the
 * desk's For Release), and Conformity with its reason where a result was judged against a specification.
 */
export function SampleResults({ position, description, results, amendments, decisions }: SampleResultsProps) {
  const id = useId();
  const judged = decisions !== undefined && results.some((r) => decisions.has(r.testCode));
  return (
    <div className="result-sample">
      <h3 id={id} className="break-anywhere">
        Sample {position}
        {description ? `: ${description}` : ''}
      </h3>
      {/* On a phone the table scrolls sideways: its box takes the keyboard focus so arrow keys scroll it. */}
      <div className="table-wrap" role="group" aria-labelledby={id} tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">Test</th>
              <th scope="col">Result</th>
              <th scope="col">Remark</th>
              <th scope="col">Analysis Date</th>
              {judged && <th scope="col">Conformity</th>}
            </tr>
          </thead>
          <tbody>
            {results.map((r) => {
              const amended = amendments?.get(amendmentKey(position, r.testCode));
              const decision = decisions?.get(r.testCode);
              return (
                <tr key={r.testCode} className={amended ? 'row-amended' : undefined}>
                  <th scope="row">{findAnalyte(r.testCode)?.label ?? r.testCode}</th>
                  <td className="break-anywhere">
                    {r.value ?? '—'}
                    {amended && <AmendedNote note={amended} />}
                  </td>
                  <td>
                    <RemarkBadge remark={r.remark} />
                  </td>
                  <td>{formatDay(r.analysisDate) ?? '—'}</td>
                  {judged && (
                    <td className="conformity-cell">
                      <DecisionBadge outcome={decision?.outcome ?? null} />
                      {decision && <span className="decision-reason">{decision.reason}</span>}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
