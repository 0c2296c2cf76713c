import { useCallback } from 'react';
import { testResultsBySample } from '../../../server/domain/resultShape.js';
import { listReports } from '../../api/certificates.js';
import { getRequestDetail } from '../../api/requests.js';
import { getCombinedResult } from '../../api/results.js';
import { useLoad } from '../../hooks/useLoad.js';
import { amendmentNotes } from '../certificates/amendmentNotes.js';
import { LoadStatus } from '../LoadStatus.js';
import { SampleResults } from './SampleResults.js';

/**
 * The desk's reading of one request's results, per sample (For Release, Released), each amended result
 * marked as the client's Results page marks it: old and new reading, who, when and why. Only a
 * released request has certificates, and so amendments: the others' are not asked for.
 */
export function RequestSampleResults({ requestId, released }: { requestId: number; released: boolean }) {
  const state = useLoad(
    useCallback(
      async (signal: AbortSignal) => {
        const [request, result, reports] = await Promise.all([
          getRequestDetail(requestId, signal),
          getCombinedResult(requestId, signal),
          // Only to mark amended results: without it the results still show.
          released ? listReports(requestId, signal).catch(() => []) : [],
        ]);
        return { samples: request.samples, bySample: testResultsBySample(result, request.tests), amendments: amendmentNotes(reports) };
      },
      [requestId, released],
    ),
  );
  if (state.status !== 'ready') return <LoadStatus state={state} />;
  return state.data.samples.map((sample) => (
    <SampleResults
      key={sample.sampleId}
      position={sample.position}
      description={sample.sampleTypeDescription}
      results={state.data.bySample.get(sample.sampleId) ?? []}
      amendments={state.data.amendments}
    />
  ));
}
