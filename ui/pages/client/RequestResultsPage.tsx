import { useCallback } from 'react';
import { Link, useParams } from 'react-router-dom';
import { GROUP_LABELS, type Group } from '../../../server/domain/catalog.js';
import type { RequestWithSamples } from '../../../server/domain/requestShape.js';
import { GROUP_WIRE, testResultsOf, type WideResult } from '../../../server/domain/resultShape.js';
import { getRequestDetail } from '../../api/requests.js';
import { getCombinedResult } from '../../api/results.js';
import { listReports } from '../../api/certificates.js';
import { amendmentNotes, type AmendmentNote } from '../../components/certificates/amendmentNotes.js';
import { ReportList } from '../../components/certificates/ReportList.js';
import { LoadStatus } from '../../components/LoadStatus.js';
import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';
import { BackArrow } from '../../components/requests/BackArrow.js';
import { ResultsSummary } from '../../components/requests/ResultsSummary.js';
import { SampleResults } from '../../components/requests/SampleResults.js';
import { decisionsOfItem } from '../../components/specifications/decisions.js';
import { useLoad } from '../../hooks/useLoad.js';
import '../../styles/client.css';

/** The result groups in the order the results screen lists them (SPEC section 2). */
const RESULT_GROUPS: readonly Group[] = ['microbio', 'chemElisa', 'chemMicrobial', 'molBio'];

/** One sample's results of one group: the request's tests of that group and any other analyte with a value. */
function GroupSampleResults({ group, item, request, index, amendments }: { group: Group; item: WideResult; request: RequestWithSamples; index: number; amendments: ReadonlyMap<string, AmendmentNote> }) {
  const sample = request.samples.find((s) => s.sampleId === item.sampleId);
  const results = testResultsOf(group, item, request.tests);
  return (
    <SampleResults
      position={sample?.position ?? index + 1}
      description={sample?.sampleTypeDescription}
      results={results}
      amendments={amendments}
      decisions={decisionsOfItem(group, item)}
    />
  );
}

/**
 * /request-results/{userId}/{requestId}: the released results, a summary per sample on top (any
 * positive finding a warning), then per group and sample; Print gives the summary and the results.
 */
export function RequestResultsPage() {
  const { userId = '', requestId = '' } = useParams();
  const state = useLoad(
    useCallback(
      async (signal: AbortSignal) => {
        const [request, result, reports] = await Promise.all([
          getRequestDetail(requestId, signal),
          getCombinedResult(requestId, signal),
          // Only to mark amended results: without it the results still show, and the certificate list below reports its own failure.
          listReports(requestId, signal).catch(() => []),
        ]);
        return { request, result, amendments: amendmentNotes(reports) };
      },
      [requestId],
    ),
  );
  const back = `/track-my-request/${userId}`;

  return (
    <Page
      title="Request Results"
      note={state.status === 'ready' ? `Control Number: ${state.data.request.controlNumber ?? '—'}` : undefined}
      width="wide"
    >
      <BackArrow to={back} label="My requests" />
      <LoadStatus state={state} fill />
      {state.status === 'ready' && (
        <>
          <p className="actions no-print">
            <button type="button" className="button" onClick={() => window.print()}>
              Print
            </button>
          </p>
          <ResultsSummary samples={state.data.request.samples} result={state.data.result} tests={state.data.request.tests} />
        </>
      )}
      {state.status === 'ready' &&
        RESULT_GROUPS.map((group) => {
          const items = state.data.result[GROUP_WIRE[group].list];
          if (items.length === 0) return null;
          return (
            <section key={group} className="result-group" aria-label={GROUP_LABELS[group]}>
              <h2>{GROUP_LABELS[group]}</h2>
              {items.map((item, i) => (
                <GroupSampleResults key={item.sampleId} group={group} item={item} request={state.data.request} index={i} amendments={state.data.amendments} />
              ))}
            </section>
          );
        })}
      {state.status === 'ready' && (
        <div className="no-print">
          <ReportList requestId={requestId} />
        </div>
      )}
      <div className="actions no-print">
        <NavButton to={back}>Back</NavButton>
        <Link className="button button-secondary" to={`/request-timeline/${userId}/${requestId}`}>
          Timeline
        </Link>
      </div>
    </Page>
  );
}
