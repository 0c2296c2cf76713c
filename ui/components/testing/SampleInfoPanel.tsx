import { speciesLabel, SPECIES_NOT_STATED } from '../../../server/domain/catalog.js';
import type { TesterSample } from '../../../server/domain/resultShape.js';
import { DetailList, type Detail } from '../requests/DetailList.js';

/**
 * The sample panel of a For Testing row: descriptions numbered per sample, each with its species of
 * origin where any sample states one (issue 26: it decides which specification applies), then the
 * sampling details.
 */
export function SampleInfoPanel({ samples }: { samples: readonly TesterSample[] }) {
  const first = samples[0];
  const anySpecies = samples.some((s) => s.species);
  const items: Detail[] = [
    ...samples.flatMap((s): Detail[] => [
      [`Sample Type Description ${s.position}`, s.sampleTypeDescription],
      ...(anySpecies ? [[`Species of Origin ${s.position}`, s.species ? speciesLabel(s.species) : SPECIES_NOT_STATED] as const] : []),
    ]),
    ['Lot Batch No', first?.lotBatchNo],
    ['Sampler Name', first?.samplerName],
    ['Sample Source', first?.sampleSource],
    ['Production Date', first?.productionDate],
    ['Expiry Date', first?.expiryDate],
    ['Sampling Date', first?.samplingDate],
  ];
  return <DetailList items={items} className="sample-info" />;
}
