import { Fragment, useCallback } from 'react';
import type { Group } from '../../../server/domain/catalog.js';
import { displayedResultFields, GROUP_WIRE, type Remark } from '../../../server/domain/resultShape.js';
import type { Discipline } from '../../../server/domain/roles.js';
import { getCombinedResult } from '../../api/results.js';
import { useLoad } from '../../hooks/useLoad.js';
import { RemarkBadge } from '../requests/RemarkBadge.js';
import { DecisionBadge } from '../specifications/DecisionBadge.js';
import { analyteLabel } from '../specifications/format.js';
import { decisionsOfItem } from '../specifications/decisions.js';

const isRemark = (value: string): value is Remark => value === 'positive' || value === 'negative';

/** SPEC section 2: chemistry groups its details as 'ELISA Tests' and 'Microbial Tests'; the others have one group. */
const DETAIL_GROUPS: Record<Discipline, ReadonlyArray<{ group: Group; title: string }>> = {
  chem: [
    { group: 'chemElisa', title: 'ELISA Tests' },
    { group: 'chemMicrobial', title: 'Microbial Tests' },
  ],
  microbio: [{ group: 'microbio', title: 'Microbiology Tests' }],
  molbio: [{ group: 'molBio', title: 'Molecular Biology Tests' }],
};

/**
 * The result details of one request on a Test Results screen: per group and sample, the non-null
 * fields, and each judged result's conformity with its reason (issue 26).
 */
export function ResultDetails({ requestId, discipline, id }: { requestId: number; discipline: Discipline; id: string }) {
  const state = useLoad(useCallback((signal: AbortSignal) => getCombinedResult(requestId, signal), [requestId]));
  return (
    <div className="result-details" id={id}>
      {state.status === 'loading' && <p role="status">Loading...</p>}
      {state.status === 'error' && <p role="alert">The results could not be loaded.</p>}
      {state.status === 'ready' &&
        DETAIL_GROUPS[discipline].map(({ group, title }) => {
          const items = state.data[GROUP_WIRE[group].list];
          if (discipline === 'chem' && items.length === 0) return null;
          return (
            <section key={group} aria-label={title}>
              <h3>{title}</h3>
              {items.map((item, index) => {
                const fields = displayedResultFields(item);
                const decisions = [...decisionsOfItem(group, item)];
                return (
                  <div key={item.sampleId}>
                    <h4>Sample {index + 1}</h4>
                    {fields.length === 0 ? (
                      <p className="muted">No results entered.</p>
                    ) : (
                      <dl className="result-fields">
                        {fields.map((f) => (
                          <Fragment key={f.name}>
                            <dt>{f.label}</dt>
                            <dd>{f.name.endsWith('Remarks') && isRemark(f.value) ? <RemarkBadge remark={f.value} /> : f.value}</dd>
                          </Fragment>
                        ))}
                        {decisions.map(([code, d]) => (
                          <Fragment key={`${code}-decision`}>
                            <dt>{analyteLabel(code)} Conformity</dt>
                            <dd className="conformity-cell">
                              <DecisionBadge outcome={d.outcome} />
                              <span className="decision-reason">{d.reason}</span>
                            </dd>
                          </Fragment>
                        ))}
                      </dl>
                    )}
                  </div>
                );
              })}
            </section>
          );
        })}
    </div>
  );
}
