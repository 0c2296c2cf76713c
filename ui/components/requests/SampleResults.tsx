import { useId } from 'react';
import { findAnalyte } from '../../../server/domain/catalog.js';
import type { AnalyteResult } from '../../../server/domain/resultShape.js';
import { formatDay } from './format.js';
import { RemarkBadge } from './RemarkBadge.js';

export interface SampleResultsProps {
  /** 1-based number of the sample in its request. */
  position: number;
  description?: string;
  /** One row per test, in this order. */
  results: ReadonlyArray<AnalyteResult & { testCode: string }>;
}

/** One sample's results as a table: Test, Result, Remark, Analysis Date (the client's results and the desk's For Release). */
export function SampleResults({ position, description, results }: SampleResultsProps) {
  const id = useId();
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
            </tr>
          </thead>
          <tbody>
            {results.map((r) => (
              <tr key={r.testCode}>
                <th scope="row">{findAnalyte(r.testCode)?.label ?? r.testCode}</th>
                <td className="break-anywhere">{r.value ?? '—'}</td>
                <td>
                  <RemarkBadge remark={r.remark} />
                </td>
                <td>{formatDay(r.analysisDate) ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
