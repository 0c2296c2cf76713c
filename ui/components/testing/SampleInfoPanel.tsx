import type { TesterSample } from '../../../server/domain/resultShape.js';
import { DetailList, type Detail } from '../requests/DetailList.js';

/** The sample panel of a For Testing row: descriptions numbered per sample, then the sampling details. */
export function SampleInfoPanel({ samples }: { samples: readonly TesterSample[] }) {
  const first = samples[0];
  const items: Detail[] = [
    ...samples.map((s): Detail => [`Sample Type Description ${s.position}`, s.sampleTypeDescription]),
    ['Lot Batch No', first?.lotBatchNo],
    ['Sampler Name', first?.samplerName],
    ['Sample Source', first?.sampleSource],
    ['Production Date', first?.productionDate],
    ['Expiry Date', first?.expiryDate],
    ['Sampling Date', first?.samplingDate],
  ];
  return <DetailList items={items} className="sample-info" />;
}
