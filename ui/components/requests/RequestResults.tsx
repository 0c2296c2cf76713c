import { useCallback } from 'react';
import { testResultsBySample } from '../../../server/domain/resultShape.js';
import { listReports } from '../../api/certificates.js';
import { getRequestDetail } from '../../api/requests.js';
import { getCombinedResult } from '../../api/results.js';
import { useLoad } from '../../hooks/useLoad.js';
import { amendmentNotes } from '../certificates/amendmentNotes.js';
import { LoadStatus } from '../LoadStatus.js';
import { ConformityLine } from '../specifications/ConformityLine.js';
import { decisionsBySample, requestConformity } from '../specifications/decisions.js';
import { SampleResults } from './SampleResults.js';

/**
 * A request's results as the desk reads them (For Release, Released, Request Details): the statement
 * of conformity of the whole request, where results were judged, then per sample each test's result,
 * remark and conformity with its reason, each amended result marked as the client's Results page
 * marks it (old and new reading, who, when and why). Only a released request has certificates, and
 * so amendments: the others' are not asked for.
 */
export function RequestResults({ requestId, released = false }: { requestId: number; released?: boolean }) {
  const state = useLoad(
    useCallback(
      async (signal: AbortSignal) => {
        const [request, result, reports] = await Promise.all([
          getRequestDetail(requestId, signal),
          getCombinedResult(requestId, signal),
          // Only to mark amended results: without it the results still show.
          released ? listReports(requestId, signal).catch(() => []) : [],
        ]);
        return { samples: request.samples, bySample: testResultsBySample(result, request.tests), decisions: decisionsBySample(result), amendments: amendmentNotes(reports) };
      },
      [requestId, released],
    ),
  );
  if (state.status !== 'ready') return <LoadStatus state={state} />;
  const { samples, bySample, decisions, amendments } = state.data;
  return (
    <>
      <ConformityLine outcome={requestConformity(decisions)} />
      {samples.map((sample) => (
        <SampleResults
          key={sample.sampleId}
          position={sample.position}
          description={sample.sampleTypeDescription}
          results={bySample.get(sample.sampleId) ?? []}
          decisions={decisions.get(sample.sampleId)}
          amendments={amendments}
        />
      ))}
    </>
  );
}
