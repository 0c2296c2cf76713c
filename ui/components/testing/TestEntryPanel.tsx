import { GROUP_SECTION_TITLES, speciesLabel } from '../../../server/domain/catalog.js';
import type { TesterSample } from '../../../server/domain/resultShape.js';
import type { Discipline } from '../../../server/domain/roles.js';
import type { DecisionRule, Specification } from '../../../server/domain/specifications.js';
import { AnalyteResultRow } from './AnalyteResultRow.js';
import { draftKey, EMPTY_DRAFT, groupsToTest, type Drafts, type ResultDraft } from './drafts.js';

/** Shown when a request has none of the discipline's tests (SPEC section 2 quotes the chemistry one). */
const NO_TESTS: Record<Discipline, string> = {
  chem: 'No chemical tests selected',
  microbio: 'No microbiological tests selected',
  molbio: 'No molecular biology tests selected',
};

export interface TestEntryPanelProps {
  request: { tests: readonly string[]; samples: readonly TesterSample[] };
  discipline: Discipline;
  drafts: Drafts;
  /** Keys (sampleId:code) of the rows that differ from what is stored. */
  unsaved: ReadonlySet<string>;
  onChange: (key: string, draft: ResultDraft) => void;
  /** The specification that applies to each row (by draft key), and the laboratory's decision rule (issue 26). */
  specs?: ReadonlyMap<string, Specification>;
  rule?: DecisionRule;
}

/**
 * The result entry panel of one request: every sample, and for each the ticked analytes of this
 * discipline, grouped in their sections (chemistry: 'Microbial Inhibition Test', 'ELISA Tests').
 */
export function TestEntryPanel({ request, discipline, drafts, unsaved, onChange, specs, rule }: TestEntryPanelProps) {
  const groups = groupsToTest(request, discipline);
  if (groups.length === 0) return <p className="empty">{NO_TESTS[discipline]}</p>;
  if (request.samples.length === 0) return <p className="empty">No sample ID found for this request</p>;
  return (
    <div className="test-panel">
      {request.samples.map((sample) => (
        <fieldset key={sample.sampleId} className="test-sample">
          <legend>
            Sample {sample.position}: <span className="break-anywhere">{sample.sampleTypeDescription}</span>
            {/* The species of origin decides which limit applies (issue 26). */}
            {sample.species && <> (Species of Origin: {speciesLabel(sample.species)})</>}
          </legend>
          {groups.map(({ group, analytes }) => (
            <section key={group} className="test-group" aria-label={`${GROUP_SECTION_TITLES[group]}, sample ${sample.position}`}>
              <h3 className="test-group-title kicker">{GROUP_SECTION_TITLES[group]}</h3>
              {analytes.map((a) => {
                const key = draftKey(sample.sampleId, a.code);
                return (
                  <AnalyteResultRow
                    key={a.code}
                    label={a.label}
                    sampleNumber={sample.position}
                    draft={drafts[key] ?? EMPTY_DRAFT}
                    unsaved={unsaved.has(key)}
                    onChange={(draft) => onChange(key, draft)}
                    spec={specs?.get(key) ?? null}
                    rule={rule}
                  />
                );
              })}
            </section>
          ))}
        </fieldset>
      ))}
    </div>
  );
}
