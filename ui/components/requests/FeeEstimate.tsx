import { estimateFee, expectedCompletionDate, turnaroundDays } from '../../../server/domain/fees.js';
import { formatDay, php, todayUtc } from './format.js';

export interface FeeEstimateProps {
  tests: readonly string[];
  sampleCount: number;
  gramPositiveAst: string;
  gramNegativeAst: string;
}

/**
 * The live estimate of the submission form: fee per sample × test (Culture and Sensitivity per
 * panel) and the expected completion date in working days. The server computes both again.
 */
export function FeeEstimate({ tests, sampleCount, gramPositiveAst, gramNegativeAst }: FeeEstimateProps) {
  const fee = estimateFee({ tests, sampleCount, gramPositiveAst, gramNegativeAst });
  const days = turnaroundDays(tests);
  return (
    <aside className="fee-estimate" aria-labelledby="fee-estimate-title">
      <h2 id="fee-estimate-title">Estimate</h2>
      <div aria-live="polite">
        <p className="fee-total">
          Estimated Fee: <strong>{php(fee.total)}</strong>
        </p>
        <p>
          Expected Completion Date:{' '}
          <strong>{tests.length > 0 ? formatDay(expectedCompletionDate(todayUtc(), tests)) : '—'}</strong>
          {days > 0 && <span className="muted"> ({days} working days)</span>}
        </p>
      </div>
      {fee.lines.length > 0 && (
        // A box that scrolls once many tests are ticked: it takes the focus, so the keyboard scrolls it
        // too (axe's scrollable-region-focusable), and is named for a screen reader landing on it.
        <ul className="fee-lines" tabIndex={0} aria-label="Fee per test">
          {fee.lines.map((line) => (
            <li key={line.code}>
              <span>{line.label}</span>{' '}
              <span className="muted">
                {line.quantity} × {php(line.unitPrice)}
              </span>{' '}
              <span className="fee-line-amount">{php(line.amount)}</span>
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}
