import { findAnalyte } from '../../../server/domain/catalog.js';
import type { SampleRecord } from '../../../server/domain/requestShape.js';
import { testResultsBySample, type CombinedResult } from '../../../server/domain/resultShape.js';
import { PositiveFinding } from '../queue/PositiveFinding.js';
import { ConformityLine } from '../specifications/ConformityLine.js';
import { DecisionBadge } from '../specifications/DecisionBadge.js';
import { conformityOf, decisionsBySample, requestConformity } from '../specifications/decisions.js';
import { ScrollingTable } from '../ScrollingTable.js';

export interface ResultsSummaryProps {
  samples: readonly SampleRecord[];
  result: CombinedResult;
  /** The request's ticked test codes. */
  tests: readonly string[];
}

/**
 * The answer a client looks for first, above the detailed results: per sample, whether any test
 * found something positive (a warning naming those tests), else that nothing positive was found;
 * where results were judged against specifications, the statement of conformity of the request and
 * of each sample (the worst of its tests').
 */
export function ResultsSummary({ samples, result, tests }: ResultsSummaryProps) {
  const bySample = testResultsBySample(result, tests);
  const decisions = decisionsBySample(result);
  const rows = samples.map((sample) => {
    const results = bySample.get(sample.sampleId) ?? [];
    const positives = results.filter((r) => r.remark === 'positive').map((r) => findAnalyte(r.testCode)?.label ?? r.testCode);
    return { sample, tested: results.length, positives, conformity: conformityOf(decisions.get(sample.sampleId)?.values() ?? []) };
  });
  const judged = rows.some((r) => r.conformity !== null);
  const withPositive = rows.filter((r) => r.positives.length > 0).length;

  return (
    <section className="results-summary" aria-labelledby="results-summary-title">
      <h2 id="results-summary-title">Summary</h2>
      <p className="results-summary-verdict">
        {withPositive === 0 ? (
          'No positive finding in any sample.'
        ) : (
          <PositiveFinding text={`${withPositive} of ${rows.length} ${rows.length === 1 ? 'sample has' : 'samples have'} a positive finding`} />
        )}
      </p>
      <ConformityLine outcome={requestConformity(decisions)} />
      <ScrollingTable label="Summary per sample">
        <table>
          <thead>
            <tr>
              <th scope="col">Sample</th>
              <th scope="col">Tests</th>
              <th scope="col">Finding</th>
              {judged && <th scope="col">Conformity</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map(({ sample, tested, positives, conformity }) => (
              <tr key={sample.sampleId}>
                <th scope="row" className="break-anywhere">
                  Sample {sample.position}
                  {sample.sampleTypeDescription ? `: ${sample.sampleTypeDescription}` : ''}
                </th>
                <td>{tested}</td>
                <td>{positives.length > 0 ? <PositiveFinding text={`Positive: ${positives.join(', ')}`} /> : <span className="muted">No positive finding</span>}</td>
                {judged && (
                  <td>
                    <DecisionBadge outcome={conformity} />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollingTable>
    </section>
  );
}
