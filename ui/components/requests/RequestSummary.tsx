import { useId } from 'react';
import { analytesOfGroup, GROUP_SECTION_TITLES, speciesLabel } from '../../../server/domain/catalog.js';
import type { RequestView, SampleRecord } from '../../../server/domain/requestShape.js';
import { STATUS_DISPLAY } from '../../../server/domain/requestStatus.js';
import { groupsOfTests } from '../../../server/domain/resultShape.js';
import { ContactDetails } from './ContactDetails.js';
import { DetailList } from './DetailList.js';
import { formatDay, formatTimestampDay, php, purposeText } from './format.js';
import '../../styles/findings.css';

export interface RequestSummaryProps {
  /** The request as read (GET requests/detail/{id} or the desk's own read), with any rejection reason. */
  request: RequestView & { rejectionReason?: string | null };
  /** Its samples in row order; undefined while they load. */
  samples?: readonly SampleRecord[];
}

/**
 * The whole request, read-only, in the order of the submission form: client, purpose, category,
 * sample information with every sample, tests ticked, fee and due date. Used by the client's review
 * and the staff request details.
 */
export function RequestSummary({ request, samples }: RequestSummaryProps) {
  const r = request;
  const id = useId();
  const groups = groupsOfTests(r.tests);
  const rejected = r.requestStatus === 'REJECTED';
  return (
    <div className="request-summary">
      {rejected && (
        <p className="rejection-notice">
          <strong>Rejected:</strong> <span className="break-anywhere">{r.rejectionReason || 'No reason was given.'}</span>
        </p>
      )}
      <section aria-labelledby={`${id}-request`}>
        <h2 id={`${id}-request`}>Request</h2>
        <DetailList
          items={[
            ['Control Number', r.controlNumber ?? 'Not yet assigned'],
            ['Status', STATUS_DISPLAY[r.requestStatus] ?? r.requestStatus],
            ['Submission Date', formatTimestampDay(r.submissionDate)],
            ['Estimated Fee', php(r.estimatedFee)],
            // A rejected request will not be completed.
            ...(rejected ? [] : [['Expected Completion Date', formatDay(r.dueDate)] as const]),
          ]}
        />
      </section>

      <section aria-labelledby={`${id}-client`}>
        <h2 id={`${id}-client`}>Client</h2>
        <ContactDetails contact={r} address={r.companyAddress} />
      </section>

      <section aria-labelledby={`${id}-purpose`}>
        <h2 id={`${id}-purpose`}>1 Purpose of Testing</h2>
        <p className="break-anywhere">{purposeText(r.testingPurpose, r.otherTestingPurpose)}</p>
      </section>

      <section aria-labelledby={`${id}-category`}>
        <h2 id={`${id}-category`}>2 Sample Category</h2>
        <p>{r.sampleCategory}</p>
      </section>

      <section aria-labelledby={`${id}-samples`}>
        <h2 id={`${id}-samples`}>3 Sample Information</h2>
        <DetailList
          items={[
            ['Lot/Batch No.', r.lotBatchNo],
            ['Sample Source', r.sampleSource],
            ['Production Date', formatDay(r.productionDate)],
            ['Expiry Date', formatDay(r.expiryDate)],
            ['Sampling Date', formatDay(r.samplingDate)],
            ['Sampler Name', r.samplerName],
          ]}
        />
        <h3>Samples</h3>
        {samples === undefined ? (
          <p role="status">Loading sample inputs...</p>
        ) : (
          <ol className="summary-samples">
            {samples.map((s, i) => (
              <li key={s.sampleId}>
                <span className="summary-sample-label">Sample Type Description {i + 1}:</span>{' '}
                <span className="break-anywhere">{s.sampleTypeDescription || '—'}</span>
                {s.species && (
                  <>
                    {' '}
                    <span className="summary-sample-species">(Species of Origin: {speciesLabel(s.species)})</span>
                  </>
                )}
              </li>
            ))}
          </ol>
        )}
      </section>

      <section aria-labelledby={`${id}-tests`}>
        <h2 id={`${id}-tests`}>4 Test Selection</h2>
        {groups.map((group) => (
          <div key={group} className="summary-group">
            <h3>{GROUP_SECTION_TITLES[group]}</h3>
            <ul>
              {analytesOfGroup(group)
                .filter((a) => r.tests.includes(a.code))
                .map((a) => (
                  <li key={a.code}>{a.orderLabel}</li>
                ))}
            </ul>
          </div>
        ))}
        {(r.gramPositiveAstText || r.gramNegativeAstText) && (
          <DetailList
            items={[
              ['Gram Positive AST', r.gramPositiveAstText],
              ['Gram Negative AST', r.gramNegativeAstText],
            ]}
          />
        )}
      </section>
    </div>
  );
}
