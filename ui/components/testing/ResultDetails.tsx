import { Fragment, useCallback } from 'react';
import { analytesOfGroup, type Group } from '../../../server/domain/catalog.js';
import { displayedResultFields, GROUP_WIRE, type Remark } from '../../../server/domain/resultShape.js';
import type { Discipline } from '../../../server/domain/roles.js';
import { listAmendments } from '../../api/certificates.js';
import { getCombinedResult } from '../../api/results.js';
import { useLoad } from '../../hooks/useLoad.js';
import { AmendedNote } from '../certificates/AmendedNote.js';
import { amendmentKey, amendmentsByResult } from '../certificates/amendmentNotes.js';
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
 * fields, each judged result's conformity with its reason (issue 26), and (a released request) each
 * amended result marked as every results screen marks it: old and new reading, who, when and why
 * (issue 25). Loaded when the tester opens the request, never for the whole list.
 */
export function ResultDetails({ requestId, discipline, id, released = false }: { requestId: number; discipline: Discipline; id: string; released?: boolean }) {
  const state = useLoad(
    useCallback(
      async (signal: AbortSignal) => {
        const [result, amendments] = await Promise.all([
          getCombinedResult(requestId, signal),
          // Only to mark amended results (the server gives a tester its own discipline's): without it the results still show.
          released ? listAmendments(requestId, signal).catch(() => []) : [],
        ]);
        return { result, amendments: amendmentsByResult(amendments) };
      },
      [requestId, released],
    ),
  );
  return (
    <div className="result-details" id={id}>
      {state.status === 'loading' && <p role="status">Loading...</p>}
      {state.status === 'error' && <p role="alert">The results could not be loaded.</p>}
      {state.status === 'ready' &&
        DETAIL_GROUPS[discipline].map(({ group, title }) => {
          const items = state.data.result[GROUP_WIRE[group].list];
          if (discipline === 'chem' && items.length === 0) return null;
          return (
            <section key={group} aria-label={title}>
              <h3>{title}</h3>
              {items.map((item, index) => {
                // Items come in the order of their samples, every sample with every test of the group.
                const position = index + 1;
                const fields = displayedResultFields(item);
                const decisions = [...decisionsOfItem(group, item)];
                const amended = analytesOfGroup(group).flatMap(({ code }) => {
                  const note = state.data.amendments.get(amendmentKey(position, code));
                  return note ? [{ code, note }] : [];
                });
                // An amendment is marked under the result's value; one that emptied the value, on a line of its own.
                const shown = new Set(fields.map((f) => f.name));
                return (
                  <div key={item.sampleId}>
                    <h4>Sample {position}</h4>
                    {fields.length === 0 && amended.length === 0 ? (
                      <p className="muted">No results entered.</p>
                    ) : (
                      <dl className="result-fields">
                        {fields.map((f) => {
                          const note = amended.find((a) => a.code === f.name)?.note;
                          return (
                            <Fragment key={f.name}>
                              <dt>{f.label}</dt>
                              <dd>
                                {f.name.endsWith('Remarks') && isRemark(f.value) ? <RemarkBadge remark={f.value} /> : f.value}
                                {note && <AmendedNote note={note} />}
                              </dd>
                            </Fragment>
                          );
                        })}
                        {amended
                          .filter((a) => !shown.has(a.code))
                          .map(({ code, note }) => (
                            <Fragment key={`${code}-amended`}>
                              <dt>{analyteLabel(code)}</dt>
                              <dd>
                                <AmendedNote note={note} />
                              </dd>
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
