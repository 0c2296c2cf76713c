import { useCallback } from 'react';
import { useParams } from 'react-router-dom';
import { analytesOfGroup, GROUP_LABELS, type Group } from '../../../server/domain/catalog.js';
import { analysisDateKey, GROUP_WIRE, remarksKey, type WideResult } from '../../../server/domain/resultShape.js';
import { getCombinedResult, getRequestDetail, type RequestDetail } from '../../api/requests.js';
import { NavButton } from '../../components/NavButton.js';
import { Page } from '../../components/Page.js';
import { BackArrow } from '../../components/requests/BackArrow.js';
import { formatDay } from '../../components/requests/format.js';
import { failureText, useLoad } from '../../hooks/useLoad.js';
import '../../styles/client.css';

/** The result groups in the order the results screen lists them (SPEC section 2). */
const RESULT_GROUPS: readonly Group[] = ['microbio', 'chemElisa', 'chemMicrobial', 'molBio'];

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : null);

function Remark({ value }: { value: unknown }) {
  if (value !== 'positive' && value !== 'negative') return <>—</>;
  return <span className={`remark remark-${value}`}>{value === 'positive' ? 'Positive' : 'Negative'}</span>;
}

/** One sample's results of one group: the request's tests of that group and any other analyte with a value. */
function SampleResults({ group, item, request, index }: { group: Group; item: WideResult; request: RequestDetail; index: number }) {
  const sample = request.samples.find((s) => s.sampleId === item.sampleId);
  const position = sample?.position ?? index + 1;
  const analytes = analytesOfGroup(group).filter((a) => request.tests.includes(a.code) || text(item[a.code]) !== null);
  return (
    <div className="result-sample">
      <h3 className="break-anywhere">
        Sample {position}
        {sample?.sampleTypeDescription ? `: ${sample.sampleTypeDescription}` : ''}
      </h3>
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Test</th>
              <th scope="col">Result</th>
              <th scope="col">Remark</th>
              <th scope="col">Analysis Date</th>
            </tr>
          </thead>
          <tbody>
            {analytes.map((a) => (
              <tr key={a.code}>
                <th scope="row">{a.label}</th>
                <td className="break-anywhere">{text(item[a.code]) ?? '—'}</td>
                <td>
                  <Remark value={item[remarksKey(a.code)]} />
                </td>
                <td>{formatDay(text(item[analysisDateKey(a.code)])) ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** /request-results/{userId}/{requestId}: the released results, per group and sample. */
export function RequestResultsPage() {
  const { userId = '', requestId = '' } = useParams();
  const state = useLoad(
    useCallback(
      async (signal: AbortSignal) => {
        const [request, result] = await Promise.all([getRequestDetail(requestId, signal), getCombinedResult(requestId, signal)]);
        return { request, result };
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
      {state.status === 'loading' && <p role="status">Loading...</p>}
      {state.status === 'error' && (
        <p className="form-error" role="alert">
          {failureText(state.error)}
        </p>
      )}
      {state.status === 'ready' &&
        RESULT_GROUPS.map((group) => {
          const items = state.data.result[GROUP_WIRE[group].list];
          if (items.length === 0) return null;
          return (
            <section key={group} className="result-group" aria-label={GROUP_LABELS[group]}>
              <h2>{GROUP_LABELS[group]}</h2>
              {items.map((item, i) => (
                <SampleResults key={item.sampleId} group={group} item={item} request={state.data.request} index={i} />
              ))}
            </section>
          );
        })}
      <div className="actions">
        <NavButton to={back}>Back</NavButton>
      </div>
    </Page>
  );
}
