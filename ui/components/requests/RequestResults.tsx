import { useCallback } from 'react';
import { testResultsBySample } from '../../../server/domain/resultShape.js';
import { getRequestDetail } from '../../api/requests.js';
import { getCombinedResult } from '../../api/results.js';
import { useLoad } from '../../hooks/useLoad.js';
import { LoadStatus } from '../LoadStatus.js';
import { ConformityLine } from '../specifications/ConformityLine.js';
import { decisionsBySample, requestConformity } from '../specifications/decisions.js';
import { SampleResults } from './SampleResults.js';

/**
 * A request's results as the desk reviews them (For Release, Request Details): the statement of
 * conformity of the whole request, where results were judged, then per sample each test's result,
 * remark and conformity with its reason.
 */
export function RequestResults({ requestId }: { requestId: number }) {
  const state = useLoad(
    useCallback(
      async (signal: AbortSignal) => {
        const [request, result] = await Promise.all([getRequestDetail(requestId, signal), getCombinedResult(requestId, signal)]);
        return { samples: request.samples, bySample: testResultsBySample(result, request.tests), decisions: decisionsBySample(result) };
      },
      [requestId],
    ),
  );
  if (state.status !== 'ready') return <LoadStatus state={state} />;
  const { samples, bySample, decisions } = state.data;
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
        />
      ))}
    </>
  );
}
